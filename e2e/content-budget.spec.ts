import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { EXTENSION_DIR } from './support/launch';

// The content scripts run in every frame of every page the agent visits, before the page's parser:
// keep them small. content.js parses with zod mini (classic zod would add some 60 kB and 3–5 ms to
// each page load, see schemas/zod-mini.ts); page-errors.js runs in the page's own world and has no deps.
const BUDGETS: Record<string, number> = {
  'content-scripts/content.js': 100 * 1024,
  'content-scripts/page-errors.js': 4 * 1024,
};

for (const [file, budget] of Object.entries(BUDGETS)) {
  test(`${file} stays within its ${budget / 1024} KiB budget`, () => {
    const size = statSync(path.join(EXTENSION_DIR, file)).size;
    expect(size).toBeLessThanOrEqual(budget);
  });
}

// Every zod schema a content script imports is built at its start, in every frame, delaying the page's
// DOMContentLoaded: it imports only those of what it parses (schemas/content-messages.ts), never the
// background's own messages or the settings.
test('content.js builds no schema of the background’s own messages or of the settings', () => {
  const script = readFileSync(path.join(EXTENSION_DIR, 'content-scripts/content.js'), 'utf8');
  // Marks of those schemas only (the DOM timeline's own options name `bufferSeconds`, so it is no mark).
  const found = ['clip/encode', 'ui/api', 'failureCooldownMs', 'captureSource'].filter((mark) => script.includes(mark));
  expect(found).toEqual([]);
});
