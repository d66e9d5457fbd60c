import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Each test starts its own Chromium with the extension. Two spec files at a time on the 2-core
  // machines: a test mostly waits (frames come at the capture rate, bundles after their cooldowns),
  // so two share the cores with time to spare; a spec file's tests still run one after another.
  workers: 2,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
});
