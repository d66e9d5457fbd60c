import { writeFileSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect } from '@playwright/test';
import { BUILT_IN_MASKER } from '../src/redact/mask-text';
import { afr } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import { launchWithRecorder, type RecorderBrowser } from './support/launch';
import { decodeGrayFrames, decodeRgb, jpegFramesOf, lumaStats, type Box } from './support/pixels';
import { secretVariants } from './support/secrets';
import { startSiteServer, type SiteServer } from './support/site-server';

/**
 * Two races between the page and the frames, in one browser: a secret typed at an agent's speed
 * is masked in every frame taken after the key that made it one; and a page an agent fails on
 * half a second after opening it has a frame of its own before the failure.
 */

/** The mask fill, #6b7280, as 8-bit luma (BT.601, as a JPEG's Y plane). */
const MASK_LUMA = 0.299 * 0x6b + 0.587 * 0x72 + 0.114 * 0x80;
const isMasked = (s: { mean: number; std: number }) => s.std < 8 && Math.abs(s.mean - MASK_LUMA) < 12;

const KEY = 'sk-proj-Zq7Xw3Lk9Pm2Rt5Vn8Bc4Hd6Jf1';
/** Where each text is typed, and the text: an address, then a key. */
const FIELDS = [
  { selector: '#editor', text: `mail me at editable.petra@example.org, key ${KEY}A` },
  { selector: '#nested', caretIn: '#nested-line', text: `mail me at nested.olga@example.org, key ${KEY}B` },
  { selector: '#area', text: `mail me at area.ivan@example.org, key ${KEY}C` },
  { selector: '#plain', text: `mail me at plain.sara@example.org, key ${KEY}D` },
] as const;
const PLANTED = FIELDS.flatMap(({ text }) => [text.slice(11, text.indexOf(',')), text.slice(text.indexOf('sk-'))]);
const KEY_DELAY_MS = 15;
const ROUNDS = 5;

/** Types `text` at `KEY_DELAY_MS` a key into the focused element; resolves to when (page clock) the text first held a secret. */
async function typeTimed(page: Page, selector: string, text: string): Promise<number> {
  // Each `input` event, with the text it left, as the page saw it.
  await page.evaluate((sel) => {
    const el = document.querySelector(sel) as HTMLElement & { value?: string };
    const seen: { t: number; text: string }[] = [];
    (window as unknown as { typed: typeof seen }).typed = seen;
    el.addEventListener('input', () => seen.push({ t: Date.now(), text: el.value ?? el.textContent ?? '' }));
  }, selector);
  await page.keyboard.type(text, { delay: KEY_DELAY_MS });
  const seen = await page.evaluate(() => (window as unknown as { typed: { t: number; text: string }[] }).typed);
  const made = seen.find(({ text: typed }) => BUILT_IN_MASKER.mask(typed).text !== typed);
  if (!made) throw new Error(`no secret in what was typed into ${selector}: ${seen.at(-1)?.text}`);
  return made.t;
}

let recorder: RecorderBrowser;
let site: SiteServer;
test.beforeAll(async () => {
  site = await startSiteServer();
  recorder = await launchWithRecorder();
});
test.afterAll(async () => {
  await recorder?.close();
  await site?.close();
});

// eslint-disable-next-line no-empty-pattern
test(`a secret typed at ${KEY_DELAY_MS} ms a key into an editor, a nested editor, a textarea and an input is masked in every frame after the key that made it one (${ROUNDS} rounds)`, async ({}, testInfo) => {
  // Decoding every frame after each secret takes a while, more on a loaded machine.
  test.setTimeout(ROUNDS * 150_000);
  const { worker } = recorder;
  await afr(worker, 'configure', { captureSource: 'screencast' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  let checked = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await page.goto(`${site.origin}/typing.html?round=${round}`);
    await waitForCaptures(2);
    const boxes: Box[] = [];
    const madeSecretAt: number[] = [];
    for (const field of FIELDS) {
      await page.click(field.selector);
      if ('caretIn' in field) {
        // The text goes into the editor's child span: the caret is put inside it, as an editor does.
        await page.evaluate((sel) => {
          const line = document.querySelector(sel)!;
          line.textContent = '\u203a ';
          const range = document.createRange();
          range.setStart(line.firstChild!, 2);
          getSelection()!.removeAllRanges();
          getSelection()!.addRange(range);
        }, field.caretIn);
      }
      boxes.push((await page.locator(field.selector).boundingBox())!);
      madeSecretAt.push(await typeTimed(page, field.selector, field.text));
    }
    if ((await page.locator('#nested-line').textContent())?.includes('nested.olga') !== true) throw new Error('the nested editor did not type into its span');
    await page.waitForTimeout(400);
    const bundle = await exportBundle(worker, await afr(worker, 'fail', { reason: 'assertion_failed', label: `typing round ${round}` }));
    checked += await checkFrames(bundle, boxes, madeSecretAt, page.viewportSize()!.width, testInfo);
    expect(findSecrets(bundle, [...PLANTED, ...secretVariants()])).toEqual([]);
  }
  // Frames were taken after each secret was typed (in each round, one at least after the last one's).
  expect(checked).toBeGreaterThanOrEqual(ROUNDS * FIELDS.length);
});

/** Every frame taken after a field's secret was typed shows that field flat (masked); returns how many field-frames were checked. */
async function checkFrames(bundle: OpenedBundle, boxes: Box[], madeSecretAt: number[], viewportWidth: number, testInfo: TestInfo): Promise<number> {
  let checked = 0;
  const perField = madeSecretAt.map(() => 0);
  // Only the frames taken after a secret, decoded by one ffmpeg.
  const needed = jpegFramesOf(bundle).filter((frame) => madeSecretAt.some((at) => frame.ts >= at));
  for await (const { frame, img } of decodeGrayFrames(needed)) {
    const fields = madeSecretAt.flatMap((at, i) => (frame.ts >= at ? [i] : []));
    const { jpeg } = frame;
    for (const i of fields) {
      const stats = lumaStats(img, boxes[i]!, viewportWidth);
      if (!isMasked(stats)) writeFileSync(testInfo.outputPath(`${frame.name.replace('/', '-')}-${FIELDS[i]!.selector.slice(1)}.jpeg`), jpeg);
      expect(isMasked(stats), `${FIELDS[i]!.selector} in ${frame.name} (${frame.source}, ${frame.ts - madeSecretAt[i]!} ms after its secret was typed): ${JSON.stringify(stats)}`).toBe(true);
      perField[i] = perField[i]! + 1;
      checked++;
    }
  }
  expect(perField.every((n) => n > 0), `frames after each field's secret: ${perField.join(', ')}`).toBe(true);
  return checked;
}

/** Whether most of a frame is the test page's green (#0a8f3c). */
async function showsGreenPage(bundle: OpenedBundle, frame: OpenedBundle['manifest']['frames'][number]): Promise<boolean> {
  const img = await decodeRgb(bundle.files.get(frame.name)!, frame.width, frame.height);
  let green = 0;
  for (let i = 0; i < img.pixels.length; i += 3) {
    if (Math.abs(img.pixels[i]! - 0x0a) < 30 && Math.abs(img.pixels[i + 1]! - 0x8f) < 30 && Math.abs(img.pixels[i + 2]! - 0x3c) < 30) green++;
  }
  return green > 0.5 * frame.width * frame.height;
}

/** Waits until `n` more frames were stored (the ring's count stays put once it is full). */
async function waitForCaptures(n: number): Promise<void> {
  const from = (await afr(recorder.worker, 'status')).capturesOk;
  await expect.poll(async () => (await afr(recorder.worker, 'status')).capturesOk, { timeout: 20_000 }).toBeGreaterThanOrEqual(from + n);
}

/**
 * The id of the tab showing `marker` in its URL, as the browser knows it (an agent knows its own tab;
 * the recorder's `status().tabs` may list a new tab's URL only a moment later).
 */
async function tabShowing(marker: string): Promise<number | undefined> {
  return recorder.worker.evaluate(async (m) => {
    const tabs = await chrome.tabs.query({});
    return tabs.find((t) => (t.url ?? t.pendingUrl ?? '').includes(m))?.id;
  }, marker);
}

/** When (ms since the epoch) the page now in `page` first painted, once it has; polled while it navigates. */
async function firstPaintOf(page: Page, marker: string): Promise<number> {
  for (;;) {
    const painted = await page
      .evaluate((m) => {
        const paint = location.href.includes(m) ? performance.getEntriesByType('paint')[0] : undefined;
        return paint ? performance.timeOrigin + paint.startTime : null;
      }, marker)
      .catch(() => null); // the document is being replaced
    if (painted !== null) return painted;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Navigates `page` to the green page and fails 500 ms after the navigation started (or, on a machine
 * so loaded that the page paints later than 200 ms after it, 300 ms after its first paint: the
 * recorder's target); the bundle has a frame of that page taken before the failure.
 */
async function failsHalfASecondAfter(page: Page, marker: string): Promise<void> {
  const { worker } = recorder;
  const from = Date.now();
  const navigation = page.goto(`${site.origin}/first-frame.html?${marker}`).catch((error: unknown) => error);
  const paintedAt = await firstPaintOf(page, marker);
  const tabId = await tabShowing(marker);
  expect(tabId, `the browser lists a tab showing ${marker}`).toBeDefined();
  await page.waitForTimeout(Math.max(0, from + 500 - Date.now(), paintedAt + 300 - Date.now()));
  const failedAt = Date.now();
  const bundle = await exportBundle(worker, await afr(worker, 'fail', { ...(tabId !== undefined ? { tabId } : {}), reason: 'assertion_failed', label: marker }));
  await navigation;
  const before = bundle.manifest.frames.filter((f) => f.ts >= from && f.ts < failedAt);
  const ofPage: number[] = [];
  for (const frame of before) if (await showsGreenPage(bundle, frame)) ofPage.push(frame.ts - from);
  const times = bundle.manifest.frames.map((f) => `${f.source} ${f.ts - from} ms`).join(', ');
  const dropped = JSON.stringify((await afr(worker, 'status')).droppedFramesByReason);
  expect(ofPage.length, `frames of the page (first painted ${Math.round(paintedAt - from)} ms after the navigation) before the failure ${failedAt - from} ms after it (tab ${tabId}): ${times}; dropped ${dropped}`).toBeGreaterThan(0);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
}

test('a navigation in a tab already recorded, failed 500 ms later, has a frame of the new page from before the failure', async () => {
  await afr(recorder.worker, 'configure', { captureSource: 'auto' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.bringToFront();
  await page.goto(`${site.origin}/typing.html`);
  await waitForCaptures(2);
  await failsHalfASecondAfter(page, 'tab=same');
});

test('a new tab failed 500 ms after its navigation has a frame of its page from before the failure', async () => {
  await afr(recorder.worker, 'configure', { captureSource: 'auto' });
  const page = await recorder.context.newPage();
  await failsHalfASecondAfter(page, 'tab=new');
  await page.close();
});
