import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

/**
 * The layers of the code and what each may import (docs/architecture.md draws them).
 * One entry per folder: `may` lists the other folders it may import; a folder always may import
 * its own files. Anything not listed is refused by `boundaries/dependencies`, so a wrong arrow
 * fails `npm run lint`. Tests (`*.test.ts`), `test/`, `e2e/` and `bench/` are not checked: they
 * assemble real parts on purpose.
 */
export const LAYERS = {
  // Leaves: the shapes of every message, setting and file, and general helpers.
  schemas: { pattern: 'schemas', may: [] },
  shared: { pattern: 'src/shared', may: [] },
  // Shared by both sides: pure masking and field rules (no chrome.*, no worker state).
  redact: { pattern: 'src/redact', may: ['schemas', 'shared'] },
  settings: { pattern: 'src/settings', may: ['schemas', 'shared'] },
  // Page side: runs in the content script and the page's world only.
  snapshot: { pattern: 'src/snapshot', may: ['schemas', 'shared', 'redact'] },
  // The DOM timeline (`src/timeline/`) is three layers, one sub-folder each; no element matches
  // `src/timeline` itself, since a file matching two elements would take both types.
  // Its plain data, for both sides: mirror, change log, rebuild, diff, its words, a base split into
  // parts and joined.
  'timeline-data': { pattern: 'src/timeline/data', may: ['schemas', 'shared'] },
  // Its page side: the incremental recorder (wired by the content script).
  'timeline-page': { pattern: 'src/timeline/page', may: ['schemas', 'shared', 'redact', 'snapshot', 'timeline-data'] },
  page: { pattern: 'src/page', may: ['schemas', 'shared', 'redact', 'snapshot', 'settings'] },
  // The bundle format: file names, registry, bounded zip reading, parsing, views. Writer and readers
  // import it, never each other.
  'bundle-format': { pattern: 'src/bundle-format', may: ['schemas', 'shared'] },
  // Worker core: plain TypeScript behind ports.
  ring: { pattern: 'src/ring', may: ['schemas', 'shared'] },
  steps: { pattern: 'src/steps', may: ['schemas', 'shared', 'redact'] },
  signals: { pattern: 'src/signals', may: ['schemas', 'shared', 'redact', 'steps'] },
  clip: { pattern: 'src/clip', may: ['schemas', 'shared', 'ring'] },
  capture: { pattern: 'src/capture', may: ['schemas', 'shared', 'redact', 'ring'] },
  // The page's trust boundary in the worker: which frames speak for the page, per-tab quotas.
  trust: { pattern: 'src/trust', may: ['schemas', 'shared'] },
  // The DOM timeline's worker side: each tab's timeline kept (IndexedDB behind a port), under a window
  // and a byte cap.
  'timeline-store': { pattern: 'src/timeline/store', may: ['schemas', 'shared', 'timeline-data'] },
  // Each recorded tab's requests from the debugger's `Network.*` events, masked, and `network.har`.
  network: { pattern: 'src/network', may: ['schemas', 'shared', 'redact', 'bundle-format'] },
  bundle: { pattern: 'src/bundle', may: ['schemas', 'shared', 'bundle-format', 'redact', 'settings', 'ring', 'steps', 'capture', 'clip', 'timeline-data', 'timeline-store', 'network'] },
  // Delivery of stored bundles to S3-compatible storage: outbox, signer, targets, the after-store sink.
  upload: { pattern: 'src/upload', may: ['schemas', 'shared', 'bundle', 'bundle-format'] },
  // The toolbar button's badge: which state to show, kept in step on change (pure; chrome.action is a port).
  toolbar: { pattern: 'src/toolbar', may: ['schemas', 'shared'] },
  recorder: { pattern: 'src/recorder', may: ['schemas', 'shared', 'redact', 'settings', 'ring', 'steps', 'signals', 'capture', 'clip', 'bundle', 'trust', 'timeline-store', 'network'] },
  // The browser: the only code (with entrypoints/) that touches chrome.*, IndexedDB, OffscreenCanvas.
  platform: { pattern: 'src/platform', may: ['schemas', 'shared', 'redact', 'settings', 'ring', 'steps', 'signals', 'capture', 'clip', 'bundle', 'bundle-format', 'upload', 'toolbar', 'timeline-store', 'network'] },
  // Readers: the viewer (extension page and viewer.html), the operator pages, the command line.
  viewer: { pattern: 'src/viewer', may: ['schemas', 'shared', 'bundle-format'] },
  ui: { pattern: 'src/ui', may: ['schemas', 'shared', 'settings', 'bundle-format', 'viewer'] },
  // The reads of one bundle (summary, steps, frames, DOM outline, signals) that the command line and
  // its MCP server share: pure, over the bundle format; file access stays in cli/.
  reads: { pattern: 'src/reads', may: ['schemas', 'shared', 'bundle-format'] },
  // Fleet triage: failures of many bundles folded into groups by fingerprint (pure; the CLI reads the records).
  triage: { pattern: 'src/triage', may: ['schemas', 'shared', 'bundle-format'] },
  // `afr diff`: two runs' steps lined up and their evidence compared (pure, over the reads' parsed files).
  diff: { pattern: 'src/diff', may: ['schemas', 'shared', 'bundle-format', 'reads'] },
  // `afr redact` masks with the recorder's own detectors (`redact/` is pure, like the format);
  // `afr mcp --cdp` lists a running browser's bundles through the published client.
  // `afr repro`: a bundle's steps as a replay plan, scripts in three languages, the replay's verdict
  // (pure; the CLI reads the zip and drives Chromium behind its driver port).
  repro: { pattern: 'src/repro', may: ['schemas', 'shared'] },
  cli: { pattern: 'src/cli', may: ['schemas', 'shared', 'redact', 'bundle-format', 'reads', 'triage', 'client', 'repro', 'diff'] },
  // The published client stands alone (it is bundled without schemas/ or src/).
  client: { pattern: 'src/client', may: [] },
  // Extension pages (popup, options, library, viewer, offscreen document); the two entry points of
  // their own side are narrowed below (ENTRY_FILES).
  entrypoints: { pattern: 'entrypoints', may: ['schemas', 'shared', 'settings', 'bundle-format', 'clip', 'platform', 'viewer', 'ui'] },
};

/** Files of `entrypoints/` that are one side's wiring: the content scripts and the service worker. */
const ENTRY_FILES = {
  'content-script': {
    pattern: 'entrypoints/*content.ts',
    may: ['schemas', 'shared', 'redact', 'settings', 'snapshot', 'page', 'timeline-page', 'timeline-data'],
  },
  'service-worker': {
    pattern: 'entrypoints/background.ts',
    may: ['schemas', 'shared', 'redact', 'settings', 'ring', 'steps', 'signals', 'capture', 'clip', 'bundle', 'bundle-format', 'trust', 'recorder', 'upload', 'toolbar', 'platform', 'timeline-store'],
  },
};

const elements = Object.entries(LAYERS).map(([type, { pattern }]) => ({ type, pattern }));
const files = Object.entries(ENTRY_FILES).map(([category, { pattern }]) => ({ category, pattern }));
const policies = [
  ...Object.entries(LAYERS).map(([type, { may }]) => ({
    from: { element: { type } },
    allow: { to: { element: { types: { anyOf: [type, ...may] } } } },
  })),
  // Evaluated after the folders' policies, so these take the final word for the two entry files.
  ...Object.entries(ENTRY_FILES).map(([category, { may }]) => ({
    from: { file: { categories: category } },
    disallow: { to: { element: { types: { anyOf: Object.keys(LAYERS).filter((type) => !may.includes(type)) } } } },
  })),
  ...Object.entries(ENTRY_FILES).map(([category, { may }]) => ({
    from: { file: { categories: category } },
    allow: { to: { element: { types: { anyOf: may } } } },
  })),
];

export default tseslint.config(
  { ignores: ['.output/', '.wxt/', 'node_modules/', 'bundles/', 'test-results/', 'playwright-report/', 'schemas/json/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'schemas/**/*.ts', 'entrypoints/**/*.ts'],
    ignores: ['**/*.test.ts', 'schemas/generate.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': files,
      'import/resolver': { node: { extensions: ['.ts', '.js', '.mjs'] } },
    },
    rules: {
      // Type imports count too: a type from another layer ties the two together as much as a value.
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
      // A file in no layer would escape the rule above (an unknown file's imports are not checked):
      // a new folder must join the table, and nothing sits directly in `src/timeline/`.
      'boundaries/no-unknown-files': 'error',
    },
  },
);
