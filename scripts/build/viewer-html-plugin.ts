import type { WxtViteConfig } from 'wxt';
import { VIEWER_ENTRY, bundleViewerScript } from '../../src/bundle-format/viewer-script-build';

/** A plugin of the Vite that WXT runs (WXT ships its own Vite, so the type comes through WXT). */
type VitePlugin = Extract<NonNullable<WxtViteConfig['plugins']>[number], { name: string }>;

/** `import viewerScript from 'virtual:afr-viewer-script'`: the standalone viewer as one script string. */
export const VIEWER_SCRIPT_MODULE = 'virtual:afr-viewer-script';
const RESOLVED_ID = `\0${VIEWER_SCRIPT_MODULE}`;

/*
 * `viewer.html` inside a bundle zip inlines the viewer, and it is written by the service worker, which
 * has no DOM and cannot fetch build assets by path: so the script travels as a string constant, made by
 * `bundleViewerScript` (the same function `afr validate` uses to know this version's viewer).
 */

/** Vite plugin that provides `virtual:afr-viewer-script` (see `src/viewer/virtual-viewer-script.d.ts`). */
export function viewerHtmlPlugin(entry: string = VIEWER_ENTRY): VitePlugin {
  return {
    name: 'afr-viewer-script',
    resolveId(id) {
      return id === VIEWER_SCRIPT_MODULE ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { code, inputs } = await bundleViewerScript(entry);
      // Rebuild in dev mode when a viewer source changes.
      for (const input of inputs) this.addWatchFile(input);
      return `export default ${JSON.stringify(code)};`;
    },
  };
}
