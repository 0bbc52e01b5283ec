// Command-line arguments: positional words and `--name value` / `--name=value` / `--flag` options.
export interface Args {
  positional: string[];
  options: Record<string, string | true>;
}

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) options[a.slice(2, eq)] = a.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[a.slice(2)] = argv[++i];
      else options[a.slice(2)] = true;
    } else positional.push(a);
  }
  return { positional, options };
}

export function optString(args: Args, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === 'string' ? v : undefined;
}
