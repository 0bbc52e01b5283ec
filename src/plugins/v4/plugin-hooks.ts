// Plugins' policies and middlewares join the registry routes resolve names in, as v4's containers hold them:
// `plugin::<plugin>.<name>` (a bare name in a plugin's own route resolves there too, route-chain.ts).
import type { HookRegistry } from '../../rest/route-chain';
import type { PluginRegistry } from './plugin-registry';

export function addPluginHooks(hooks: HookRegistry, registry: PluginRegistry): void {
  for (const p of registry.all()) {
    for (const [key, policy] of Object.entries(p.module.policies ?? {})) hooks.policies.set(`plugin::${p.name}.${key}`, policy);
    for (const [key, mw] of Object.entries(p.module.middlewares ?? {})) hooks.middlewares.set(`plugin::${p.name}.${key}`, mw);
  }
}
