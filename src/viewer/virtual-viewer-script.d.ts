/**
 * The standalone viewer (`src/viewer/standalone.ts`) bundled into one IIFE, as a string. Provided by
 * the Vite plugin in `scripts/build/viewer-html-plugin.ts`; not available under vitest.
 */
declare module 'virtual:afr-viewer-script' {
  const script: string;
  export default script;
}
