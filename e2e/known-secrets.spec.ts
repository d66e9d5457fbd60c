import { writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { afr, waitForFrames } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import { launchWithRecorder, type RecorderBrowser } from './support/launch';
import { decodeGrayFrames, jpegFramesOf, lumaStats, type Box } from './support/pixels';
import { startSiteServer, type SiteServer } from './support/site-server';
import type { SnapshotNode } from '../schemas/snapshot';
import { OUTLINE_FILE, SNAPSHOT_FILE, STEPS_FILE, SUMMARY_FILE, VIEWER_FILE, isFrameFileName } from '../src/bundle-format/file-names';

/** Values no detector pattern matches: masked only because of the fields they were typed into or set on. */
const PLANTED = {
  typedPassword: 'Kestrel!Mango77plum',
  savedApiKey: 'Quokka-Vireo-5521-Tamarind',
  prefilledRevealed: 'Prefill-Otter-8841',
  prefilledShownAtOnce: 'Early-Lynx-3307',
} as const;

/** Printed by the page's debug panel (`#debug`): masked by the cookie detectors, the names kept. */
const SESSION_COOKIES = { sessionid: 'q7Hk2Vx9LmP4sT8w', PHPSESSID: 'b3n5r8t1v4x7z9c2e6g0' } as const;

/** The mask fill, #6b7280, as 8-bit luma (BT.601, full range, as a JPEG's Y plane). */
const MASK_LUMA = 0.299 * 0x6b + 0.587 * 0x72 + 0.114 * 0x80;
const isMasked = (s: { mean: number; std: number }) => s.std < 8 && Math.abs(s.mean - MASK_LUMA) < 12;

test.describe.configure({ mode: 'serial' });

let site: SiteServer;
let recorder: RecorderBrowser;
let page: Page;

test.beforeAll(async () => {
  site = await startSiteServer();
  recorder = await launchWithRecorder();
  page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
});

test.afterAll(async () => {
  await recorder?.close();
  await site?.close();
});

/** Where the text `value` is drawn inside the element `id` (its first text node). */
async function textBox(id: string, value: string): Promise<Box> {
  return page.evaluate(
    ([id, value]) => {
      const text = document.getElementById(id)!.firstChild!;
      const start = text.nodeValue!.indexOf(value);
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + value.length);
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    },
    [id, value] as const,
  );
}

/** The node of a snapshot tree whose `id` attribute is `id`. */
function nodeWithId(node: SnapshotNode | undefined, id: string): SnapshotNode | undefined {
  if (!node) return undefined;
  if (node.attributes?.id === id) return node;
  for (const child of node.children ?? []) {
    const found = nodeWithId(child, id);
    if (found) return found;
  }
  return undefined;
}

const textOf = (bundle: OpenedBundle, name: string) => bundle.files.get(name)?.toString('utf8') ?? '';

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from a destructuring pattern; this test uses none
test('values of sensitive fields are masked wherever the page shows them again: echoes, "Saved key", a revealed password', async ({}, testInfo) => {
  const { worker } = recorder;
  await page.goto(`${site.origin}/known-secrets.html`);
  await waitForFrames(worker, 2);

  // One key at a time: the page echoes each prefix of the password.
  await page.locator('#pw').pressSequentially(PLANTED.typedPassword, { delay: 40 });
  // The agent fills a field that is sensitive by its name, and saves: the page shows the key back.
  await page.fill('#api-key', PLANTED.savedApiKey);
  await page.click('#save');
  await page.click('#show');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const shownAt = Date.now();
  await waitForFrames(worker, (await afr(worker, 'status')).frames + 4);

  const viewportWidth = page.viewportSize()!.width;
  const regions: Record<string, Box> = {
    'the echoed password': await textBox('preview', PLANTED.typedPassword),
    'the saved key': await textBox('saved', PLANTED.savedApiKey),
    'the revealed password field': (await page.locator('#reveal').boundingBox())!,
    'the password field shown at once': (await page.locator('#early').boundingBox())!,
  };
  const ordinary = (await page.locator('#ordinary').boundingBox())!;

  const id = await afr(worker, 'fail', { reason: 'assertion_failed', label: 'known secrets check' });
  const bundle = await exportBundle(worker, id);

  // No byte of any file (frames, clip, pages, steps, summary, outline, viewer, snapshots/*) holds a planted value.
  const names = [...bundle.files.keys()];
  for (const name of [SNAPSHOT_FILE, STEPS_FILE, SUMMARY_FILE, OUTLINE_FILE, VIEWER_FILE]) expect(names).toContain(name);
  expect(names.some((n) => n.startsWith('snapshots/'))).toBe(true);
  expect(findSecrets(bundle, Object.values(PLANTED))).toEqual([]);
  // The debug panel's session cookies are credentials by their names (the detectors), in every file too.
  expect(findSecrets(bundle, Object.values(SESSION_COOKIES))).toEqual([]);
  // Nor a prefix echoed while the password was typed (the frames' bytes aside: a few letters occur there by chance).
  const prefixes = Array.from({ length: PLANTED.typedPassword.length - 4 }, (_, i) => `Preview: ${PLANTED.typedPassword.slice(0, i + 1)}`);
  for (const [name, data] of bundle.files) {
    if (isFrameFileName(name) || name.endsWith('.mp4')) continue;
    const text = data.toString('utf8');
    for (const prefix of prefixes) expect(text.includes(prefix) || text.includes(JSON.stringify(prefix).slice(1, -1)), `${prefix} in ${name}`).toBe(false);
  }

  // What the page shows otherwise is kept, and the masks stand where the values were.
  const snapshot = textOf(bundle, SNAPSHOT_FILE);
  expect(snapshot).toContain('Ordinary text: the quarterly report is ready for review.');
  expect(snapshot).toContain('Preview: [credential]');
  expect(snapshot).toContain('Saved key [credential]');
  expect(snapshot).toMatch(/Cookie: sessionid=\S+; PHPSESSID=/);
  expect(bundle.snapshot.snapshot?.title).toBe('Account keys ([credential] saved)');
  expect(textOf(bundle, OUTLINE_FILE)).toContain('quarterly report');
  // The revealed fields are text fields now, and still withheld as passwords.
  for (const id of ['reveal', 'early']) {
    expect(nodeWithId(bundle.snapshot.snapshot?.root, id), `#${id}`).toMatchObject({
      attributes: { type: 'text' },
      value: null,
      value_redacted: true,
      redaction_kind: 'password',
    });
  }

  // Frames: each region flat (the mask's grey) once shown; ordinary text still has ink.
  let framesAfter = 0;
  for await (const { frame, img } of decodeGrayFrames(jpegFramesOf(bundle))) {
    if (frame.ts < shownAt + 300) continue;
    framesAfter++;
    for (const [name, region] of Object.entries(regions)) {
      const stats = lumaStats(img, region, viewportWidth, 1);
      if (!isMasked(stats)) writeFileSync(testInfo.outputPath(frame.name.replace('/', '-')), bundle.files.get(frame.name)!);
      expect(isMasked(stats), `${name} in ${frame.name}: ${JSON.stringify(stats)}`).toBe(true);
    }
    expect(lumaStats(img, ordinary, viewportWidth).std, `the ordinary text in ${frame.name}`).toBeGreaterThan(25);
  }
  expect(framesAfter).toBeGreaterThanOrEqual(2);
});
