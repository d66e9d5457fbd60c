import { defineConfig } from 'wxt';
import { copyFfmpegAssets } from './scripts/build/copy-ffmpeg-assets';
import { copyIcons, ICON_PATHS } from './scripts/build/copy-icons';
import { viewerHtmlPlugin } from './scripts/build/viewer-html-plugin';
import { adaptManifestForFirefox } from './scripts/build/firefox-manifest';
import { RECORDER_PUBLIC_KEY } from './src/client/extension-key';
import { MANAGED_SCHEMA_FILE } from './schemas/managed-schema';

// https://wxt.dev/api/config.html
export default defineConfig({
  // Explicit imports everywhere: a reader sees every dependency.
  imports: false,
  // `wxt/browser` is WXT's `browser`, no polyfill: Firefox's own `browser`, Chrome's `chrome` as it is
  // (promise-based in MV3), typed by @wxt-dev/browser (generated from @types/chrome).
  // AFR_OUT_DIR lets parallel builds (tests, benchmarks) write to separate folders.
  outDir: process.env.AFR_OUT_DIR ?? '.output',
  manifest: {
    name: 'Agent Flight Recorder',
    // Pins the extension id (RECORDER_EXTENSION_ID) for every unpacked load on every machine.
    key: RECORDER_PUBLIC_KEY,
    description:
      'Keeps the last seconds of what an agent-driven tab showed and did, and writes a failure bundle zip.',
    permissions: ['tabs', 'storage', 'unlimitedStorage', 'downloads', 'debugger', 'offscreen', 'webRequest', 'alarms'],
    host_permissions: ['<all_urls>'],
    // Enterprise policy (`3rdparty.extensions.<id>`) may set any setting; the schema is generated from
    // SettingsSchema (`npm run schemas`, schemas/managed-schema.ts).
    storage: { managed_schema: MANAGED_SCHEMA_FILE },
    // Drawn in assets/*.svg, rendered to assets/icon/*.png by `npm run icons`.
    icons: ICON_PATHS,
    action: { default_icon: ICON_PATHS, default_title: 'Agent Flight Recorder' },
    content_security_policy: {
      // ffmpeg.wasm needs wasm compilation in the offscreen document.
      extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'",
    },
  },
  // Provides `virtual:afr-viewer-script`, the viewer.html script the service worker puts in every bundle.
  vite: () => ({ plugins: [viewerHtmlPlugin()] }),
  hooks: {
    'build:publicAssets': (_wxt, files) => {
      files.push(...copyFfmpegAssets(), ...copyIcons());
    },
    // `wxt build -b firefox`: what works there and what does not is in docs/install.md ("Firefox").
    'build:manifestGenerated': (wxt, manifest) => {
      if (wxt.config.browser === 'firefox') adaptManifestForFirefox(manifest);
    },
  },
});
