import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Each test starts its own Chromium with the extension (the next one launched while a test runs,
  // `support/browser-pool.ts`). One spec file at a time: with two on the 2-core machines (11.1 min
  // instead of ~16), the tests that time the capture under load (bursts, sliding fields, the ring's
  // window) failed in 7 of 110, so they would only tell the machine's load.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
});
