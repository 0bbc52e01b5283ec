// The upload plugin: the /api/upload routes, the provider (local first) and image formats.
import type { PluginContext, TesseraPlugin } from '../../core/plugin';

export function createUploadPlugin(_ctx: PluginContext): TesseraPlugin {
  return { name: 'upload', services: {} };
}
