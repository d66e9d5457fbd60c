import { defineConfig } from '@playwright/test';

/**
 * Specs that time the capture: bursts seen by captureVisibleTab, fields masked while they slide or
 * scroll, the ring's window, frames of a page's first paint. A second Chromium busy on the other core
 * would make them measure the machine's load (7 of 110 failed with two spec files at a time on the
 * 2-core machines), so they run one at a time, with nothing beside them.
 */
const CAPTURE_TIMING = [
  'pixel-redaction',
  'screencast',
  'typing-race',
  'signals',
  'page-trust',
  'timeline',
  'viewer-timeline',
  'viewport-fit',
  'viewport-matrix',
  'known-secrets',
  'credential-redaction',
  'step-batching',
  'service-worker-restart',
  'storage-quota',
];

/** Specs that change what every Chromium on the machine reads (a managed policy in /etc/chromium). */
const MACHINE_WIDE = ['fleet-install'];

const ONE_AT_A_TIME = [...CAPTURE_TIMING, ...MACHINE_WIDE].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Each test starts its own Chromium with the extension (the next one launched while a test runs,
  // `support/browser-pool.ts`). One spec file at a time unless asked: `npm run test:e2e`
  // (scripts/run-e2e.mjs) runs the `one-at-a-time` project, then `rest` with two workers.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
  projects: [
    { name: 'one-at-a-time', testMatch: ONE_AT_A_TIME, workers: 1 },
    { name: 'rest', testIgnore: ONE_AT_A_TIME },
  ],
});
