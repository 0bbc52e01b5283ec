// A test project of test/plugin-projects/<name>/ started on Tessera: the project folder holds what it adds to the
// fixture app (package.json with the plugin dependencies, config/, src/), so the copy is the fixture app with the
// data real Strapi wrote for it, that project's files over it, and `node_modules` linked to the plugins installed
// in test/plugin-projects/node_modules (as node's resolution finds them from the project folder).
// stop() stops the server and removes the copy (the link only, never what it points to).
import fs from 'node:fs';
import path from 'node:path';
import { collectingLogger, copyFixtureApp, startCopy, type LogLine, type RunningApp } from '../../helpers/fixture-app';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';

export interface PluginProjectOptions {
  /** environment variables over the test's (NODE_ENV is `test`) */
  env?: Record<string, string>;
  /** files written over the copy (path relative to the project -> content) */
  edit?: Record<string, string>;
  /** Tessera's log lines (info and up) are pushed here (the default: silent) */
  logLines?: LogLine[];
}

export type { LogLine };

/** the copy of a project under test/plugin-projects/, not started (removed by the caller) */
export function copyPluginProject(name: string, edit: Record<string, string> = {}): string {
  const dir = copyFixtureApp(true);
  try {
    const project = path.join(PLUGIN_PROJECTS_DIR, name);
    for (const part of ['package.json', 'config', 'src']) {
      if (fs.existsSync(path.join(project, part))) fs.cpSync(path.join(project, part), path.join(dir, part), { recursive: true, force: true });
    }
    for (const [file, text] of Object.entries(edit)) fs.writeFileSync(path.join(dir, file), text);
    fs.symlinkSync(path.join(PLUGIN_PROJECTS_DIR, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    return dir;
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export async function startPluginProject(name: string, opts: PluginProjectOptions = {}): Promise<RunningApp> {
  return startCopy(copyPluginProject(name, opts.edit), { env: opts.env, logger: opts.logLines && collectingLogger(opts.logLines) });
}
