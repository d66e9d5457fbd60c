import { statSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { EXTENSION_DIR } from './support/launch';

// The content scripts run in every frame of every page the agent visits: keep them small.
// content.js is mostly zod (about 97 kB); page-errors.js runs in the page's own world and has no deps.
const BUDGETS: Record<string, number> = {
  'content-scripts/content.js': 150 * 1024,
  'content-scripts/page-errors.js': 4 * 1024,
};

for (const [file, budget] of Object.entries(BUDGETS)) {
  test(`${file} stays within its ${budget / 1024} KiB budget`, () => {
    const size = statSync(path.join(EXTENSION_DIR, file)).size;
    expect(size).toBeLessThanOrEqual(budget);
  });
}
