import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * How the standalone viewer script of `viewer.html` is made from the sources, in one place: the
 * extension's build inlines it into the service worker (`scripts/build/viewer-html-plugin.ts`), and
 * `afr validate` makes it again to know the script this version writes, so the two cannot drift apart.
 * Node only (esbuild): never imported by a page or the service worker.
 */

/** The viewer's entry: `src/viewer/standalone.ts`. */
export const VIEWER_ENTRY = fileURLToPath(new URL('../viewer/standalone.ts', import.meta.url));

/**
 * Bundles the standalone viewer into one minified IIFE, with the source files it read. The output is a
 * function of the sources and the esbuild version only (no paths, no dates, no comments), so the same
 * checkout gives the same script, byte for byte, in any working directory.
 */
export async function bundleViewerScript(entry: string = VIEWER_ENTRY): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [entry],
    // Relative to the sources, not to wherever the build or `afr` was started.
    absWorkingDir: path.dirname(entry),
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
  return { code, inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(path.dirname(entry), input)) };
}
