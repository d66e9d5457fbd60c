import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WxtViteConfig } from 'wxt';

/** A plugin of the Vite that WXT runs (WXT ships its own Vite, so the type comes through WXT). */
type VitePlugin = Extract<NonNullable<WxtViteConfig['plugins']>[number], { name: string }>;

/** `import viewerScript from 'virtual:afr-viewer-script'`: the standalone viewer as one script string. */
export const VIEWER_SCRIPT_MODULE = 'virtual:afr-viewer-script';
const RESOLVED_ID = `\0${VIEWER_SCRIPT_MODULE}`;

const DEFAULT_ENTRY = fileURLToPath(new URL('../../viewer/standalone.ts', import.meta.url));

/**
 * Bundles the standalone viewer into one minified IIFE. `viewer.html` inside a bundle zip inlines it,
 * and it is written by the service worker, which has no DOM and cannot fetch build assets by path:
 * so the script travels as a string constant.
 */
export async function bundleViewerScript(entry: string = DEFAULT_ENTRY): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error(`esbuild produced no output for ${entry}`);
  return { code, inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)) };
}

/** Vite plugin that provides `virtual:afr-viewer-script` (see `src/viewer/virtual-viewer-script.d.ts`). */
export function viewerHtmlPlugin(entry: string = DEFAULT_ENTRY): VitePlugin {
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
