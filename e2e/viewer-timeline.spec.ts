import type { Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import JSZip from 'jszip';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { test, expect } from './support/fixtures';
import { waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import type { RecorderBrowser } from './support/launch';
import { SECRETS, secretVariants } from './support/secrets';
import type { SiteServer } from './support/site-server';
import type { Step, StepTarget } from '../schemas/steps';
import { writeBundle } from '../src/bundle/write-bundle';
import { settleViewerHtml } from '../src/bundle-format/viewer-html';
import { DIAGNOSTICS_FILE, MANIFEST_FILE, NETWORK_HAR_FILE, SNAPSHOT_FILE, STEPS_FILE } from '../src/bundle-format/file-names';
import { openBundleZip } from '../src/bundle-format/open-zip';
import { readJsonFile } from '../src/bundle-format/parse-files';
import { loadExpectedViewer } from '../src/cli/node-io';
import { checkViewerHtml } from '../src/cli/viewer-check';
import { StepSnapshotFileSchema, type StepSnapshotFile, type TimelineNode } from '../schemas/timeline';
import { makeBundleContents } from '../test/fakes/viewer-bundle';
import { BUTTON_RECT, CLICK_CHANGES, CLICK_POINT, makeStepPages, makeTimelineBundleData } from '../test/fakes/viewer-step-pages';

// The DOM timeline in both viewers: on the recorder's own bundle of the demo checkout, and on a
// bundle built here from schema-valid data whose viewer.html carries the step pages. Select the click
// step, see the clicked element marked in its page, the red dot on its frame, what it changed; ↑/↓
// walk the steps.

const FRAME = { width: 1280, height: 720 };
/** The viewport the driver sets halfway through the demo run (it starts at 1280×720). */
const RESIZED = { width: 1000, height: 640 };
const GREY = 0x80;

/** A plain grey JPEG: nothing red in it, so red on screen is the viewer's dot. */
function greyFrame(): Uint8Array {
  const data = Buffer.alloc(FRAME.width * FRAME.height * 4, GREY);
  return new Uint8Array(jpeg.encode({ data, width: FRAME.width, height: FRAME.height }, 90).data);
}

/** The click step's page with a long list above the form, so the tree must scroll to show the target. */
function withLongList(file: StepSnapshotFile): StepSnapshotFile {
  const root = structuredClone(file.snapshot.root);
  const main = root.children![0]!;
  const items: TimelineNode[] = Array.from({ length: 300 }, (_, i) => ({ id: 1000 + i, tag: 'li', text: `product ${i + 1}` }));
  main.children!.unshift({ id: 999, tag: 'ul', children: items });
  return StepSnapshotFileSchema.parse({ ...file, snapshot: { ...file.snapshot, root, node_count: file.snapshot.node_count + 301 } });
}

/** The bundle zip, with `snapshots/` and a `viewer.html` that carries them. */
async function buildZip(script: string): Promise<Buffer> {
  const data = makeTimelineBundleData();
  const contents = makeBundleContents(data);
  const frames = contents.frames.map((f) => ({ ...f, jpeg: greyFrame() }));
  const { zip: bytes, manifest } = await writeBundle({ ...contents, frames, clip: null, manifest: { ...contents.manifest, clip: null } });
  const zip = await JSZip.loadAsync(bytes);
  const pages = makeStepPages();
  pages.set('snapshots/page-003.json', withLongList(pages.get('snapshots/page-003.json')!));
  const texts: Record<string, string> = {};
  for (const [name, file] of pages) {
    texts[name] = `${JSON.stringify(file, null, 2)}\n`;
    zip.file(name, texts[name]);
  }
  const viewer = await settleViewerHtml(script, manifest, { steps: data.steps, diagnostics: data.diagnostics, snapshot: data.snapshot, step_snapshots: texts });
  zip.file('viewer.html', viewer!.html);
  zip.file('manifest.json', `${JSON.stringify(viewer!.manifest, null, 2)}\n`);
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** The colour on screen at a point of the page (CSS px). */
async function colourAt(page: Page, x: number, y: number): Promise<[number, number, number]> {
  const png = PNG.sync.read(await page.screenshot());
  const i = (Math.round(y) * png.width + Math.round(x)) * 4;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}

/** Where a point of the frame (image px) is on screen: the image is fitted into its box, letterboxed. */
async function onScreen(page: Page, point: { x: number; y: number }, frame: { width: number; height: number } = FRAME): Promise<{ x: number; y: number }> {
  const box = (await page.locator('[data-testid="frame-image"]').boundingBox())!;
  const scale = Math.min(box.width / frame.width, box.height / frame.height);
  return { x: box.x + (box.width - frame.width * scale) / 2 + point.x * scale, y: box.y + (box.height - frame.height * scale) / 2 + point.y * scale };
}

const isRed = ([r, g, b]: readonly number[]) => r! > 200 && g! < 80 && b! < 80;

/** Waits until the frame of an action (the last one before it) is on screen and decoded; returns its manifest entry. */
async function expectFrameOf(page: Page, bundle: OpenedBundle, step: Step) {
  const frame = bundle.manifest.frames.filter((f) => f.ts <= step.ts).at(-1)!;
  const image = page.locator('[data-testid="frame-image"]');
  await expect(image).toHaveAttribute('data-frame', frame.name);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(frame.width);
  await image.scrollIntoViewIfNeeded();
  return frame;
}

/**
 * A real bundle from the demo shop: the recorder's own checkout failure (the server answers 500 to
 * "Place order"), the viewport resized before the click. In `viewer`: the click step's page marks the
 * button clicked, a red dot sits on the button in its frame (where the frame itself is not red),
 * placed with that frame's own viewport (the failure's, 1000 px wide, is not how the 1280 px window
 * drew it), the Changes tab tells what the click did, and ↑/↓ move the selection. The "Add to cart"
 * click, from before the resize, has its dot on its button in its 1280 px frame.
 */
async function checkRealClickStep(page: Page, bundle: OpenedBundle, buttons: ClickedButtons, screenshotPath: string): Promise<void> {
  const steps = bundle.steps.steps;
  const click = steps.find((s) => s.kind === 'click' && typeof s.target === 'object' && s.target?.selector.includes('place-order'))!;
  expect(click.snapshot, 'the recorder gave the click step its page').toBeDefined();
  await page.locator(`[data-testid="timeline"] > li[data-seq="${click.seq}"] button`).click();
  expect(await selectedSeq(page)).toBe(String(click.seq));

  const marked = page.locator('[data-testid="snapshot"] [data-testid="target-node"]');
  await expect(marked.locator('.afr-tag')).toHaveText('<button>');
  await expect(marked.locator('.afr-attr', { hasText: 'id=' })).toHaveText('id="place-order"');
  await expectInsideTree(page);

  await expectDotOnButton(page, bundle, click, RESIZED, buttons.placeOrder);
  await page.screenshot({ path: screenshotPath });

  await page.locator('[data-testid="tab-changes"]').click();
  await expect(page.locator('[data-testid="changes-summary"]')).toHaveText(click.changes!.description);
  await page.locator('[data-testid="tab-dom"]').click();
  await page.keyboard.press('ArrowUp');
  expect(await selectedSeq(page)).toBe(String(steps[steps.indexOf(click) - 1]!.seq));
  await page.keyboard.press('ArrowDown');
  expect(await selectedSeq(page)).toBe(String(click.seq));

  const addToCart = steps.find((s) => s.kind === 'click' && typeof s.target === 'object' && s.target?.selector.includes('add-shoes'))!;
  await page.locator(`[data-testid="timeline"] > li[data-seq="${addToCart.seq}"] button`).click();
  await expectDotOnButton(page, bundle, addToCart, FRAME, buttons.addShoes);
}

/**
 * With `step` selected, its frame is on screen, says the viewport `viewport`, and shows the red dot
 * on the button the driver clicked (`button`, CSS px when it clicked): the window draws the page at
 * one image px per CSS px (device scale 1, no zoom) whatever the viewport, so the button's centre,
 * where the driver clicked, is there in the frame. Placed by another viewport (the failure's, for a
 * frame from before the resize) the dot would be elsewhere.
 */
async function expectDotOnButton(page: Page, bundle: OpenedBundle, step: Step, viewport: { width: number; height: number }, button: Box): Promise<void> {
  const frame = await expectFrameOf(page, bundle, step);
  await expect(page.locator('[data-testid="target-note"]')).toHaveText('');
  expect(frame.viewport, `the frame of step ${step.seq} says its viewport`).toMatchObject({ ...viewport, device_pixel_ratio: 1 });
  const centre = { x: button.x + button.width / 2, y: button.y + button.height / 2 };
  const point = (step.target as StepTarget).point!;
  expect(Math.abs(point.x - centre.x) + Math.abs(point.y - centre.y), 'the recorded click point is the button\'s centre').toBeLessThan(3);
  const raw = jpeg.decode(bundle.files.get(frame.name)!, { useTArray: true });
  const at = (Math.round(centre.y) * raw.width + Math.round(centre.x)) * 4;
  expect(isRed([raw.data[at]!, raw.data[at + 1]!, raw.data[at + 2]!]), 'the frame itself is not red at the click point').toBe(false);
  const dot = await onScreen(page, centre, frame);
  const colour = await colourAt(page, dot.x, dot.y);
  expect(isRed(colour), `the red dot on the button of step ${step.seq}, got ${colour.join(',')}`).toBe(true);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where each button was (CSS px) when the driver clicked it. */
interface ClickedButtons {
  addShoes: Box;
  placeOrder: Box;
}

/**
 * The demo checkout, as an agent runs it: the order is placed and the server answers 500. Halfway,
 * after the form is filled, the driver resizes the viewport (1280×720 to 1000×640); returns when,
 * and where the buttons were when they were clicked.
 */
async function recordCheckoutFailure(recorder: RecorderBrowser, site: SiteServer): Promise<{ bundle: OpenedBundle; resizedAt: number; buttons: ClickedButtons }> {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(site.origin);
  await waitForFrames(recorder.worker, 1);
  const addShoes = (await page.locator('[data-testid="add-shoes"]').boundingBox())!;
  await page.click('[data-testid="add-shoes"]');
  await page.click('#cart-link');
  await page.waitForSelector('#checkout');
  await page.fill('#full-name', 'Jane Doe');
  await page.fill('#account-password', SECRETS.password);
  const resizedAt = Date.now();
  await page.setViewportSize(RESIZED);
  // The window shows the top of the emulated viewport only (FACTS: 1280×577 of 1280×720): bring the
  // button up into it, and wait for a frame of the filled form, the frame the click step shows.
  await page.locator('#place-order').evaluate((button) => {
    document.body.style.paddingBottom = '1000px'; // room to scroll the short page
    button.scrollIntoView({ block: 'start' });
  });
  await new Promise((resolve) => setTimeout(resolve, 700));
  const placeOrder = (await page.locator('#place-order').boundingBox())!;
  await page.click('#place-order');
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('http_5xx');
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  return { bundle, resizedAt, buttons: { addShoes, placeOrder } };
}

/**
 * Each frame says the viewport it shows: those taken before the resize 1280×720, those from the
 * click's frame on (the form, then the error page) 1000×640.
 */
function expectFrameViewports(bundle: OpenedBundle, resizedAt: number): void {
  const frames = bundle.manifest.frames;
  const click = bundle.steps.steps.find((s) => s.kind === 'click' && typeof s.target === 'object' && s.target?.selector.includes('place-order'))!;
  const clickFrame = frames.findLastIndex((f) => f.ts <= click.ts);
  const size = (f: (typeof frames)[number]) => f.viewport && { width: f.viewport.width, height: f.viewport.height };
  const before = frames.filter((f) => f.ts < resizedAt);
  expect(before.length, 'frames from before the resize').toBeGreaterThan(0);
  expect(before.map(size)).toEqual(before.map(() => FRAME));
  const after = frames.slice(clickFrame);
  expect(after.length, 'frames from the click on').toBeGreaterThan(0);
  expect(after.map(size)).toEqual(after.map(() => RESIZED));
}

/** The marked node shows inside the tree's own scroll box. */
async function expectInsideTree(page: Page): Promise<void> {
  const treeBox = (await page.locator('[data-testid="dom-tree"]').boundingBox())!;
  const targetBox = (await page.locator('[data-testid="snapshot"] [data-testid="target-node"]').boundingBox())!;
  expect(targetBox.y).toBeGreaterThanOrEqual(treeBox.y);
  expect(targetBox.y + targetBox.height).toBeLessThanOrEqual(treeBox.y + treeBox.height);
}

const selectedSeq = (page: Page) => page.locator('[data-testid="timeline"] > li.afr-selected').getAttribute('data-seq');

/** Everything the brief asks of one viewer: the click step's page, target, dot, changes; ↑/↓. */
async function checkStepView(page: Page, screenshotPath: string): Promise<void> {
  // It opens at the failure: the failure's own step selected, the page at the failure shown.
  await expect(page.locator('[data-testid="page-caption"]')).toHaveText('at the failure (step #6: failure: assertion_failed)');
  await page.locator('[data-testid="timeline"] > li[data-seq="5"] button').click();
  await expect(page.locator('[data-testid="page-caption"]')).toHaveText('at step #5: click button "Place order" #place-order');

  // The marked node is the clicked element, scrolled into view inside the tree (past the 300 items above it).
  const target = page.locator('[data-testid="snapshot"] [data-testid="target-node"]');
  await expect(target).toHaveCount(1);
  await expect(target.locator('.afr-tag')).toHaveText('<button>');
  await expect(target.locator('.afr-node-name')).toHaveText('"Place order"');
  await expect(target.locator('.afr-attr-value')).toHaveText('"place-order"');
  expect(await page.locator('[data-testid="dom-tree"]').evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await expectInsideTree(page);

  // The frame of the step shows a red dot where the pointer hit, inside the button's box; grey around.
  await expect(page.locator('[data-testid="frame-image"]')).toHaveAttribute('data-frame', 'frames/frame_0003.jpeg');
  await expect.poll(() => page.locator('[data-testid="frame-image"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(FRAME.width);
  await page.locator('[data-testid="frame-image"]').scrollIntoViewIfNeeded();
  const dot = await onScreen(page, CLICK_POINT);
  const colour = await colourAt(page, dot.x, dot.y);
  expect(isRed(colour), `red at the click point, got ${colour.join(',')}`).toBe(true);
  const outside = await onScreen(page, { x: BUTTON_RECT.x - 60, y: BUTTON_RECT.y - 60 });
  const grey = await colourAt(page, outside.x, outside.y);
  expect(grey.every((c) => Math.abs(c - GREY) < 16), `the frame's grey outside the target, got ${grey.join(',')}`).toBe(true);
  await page.screenshot({ path: screenshotPath });
  await page.screenshot({ path: screenshotPath.replace(/\.png$/, '-full-page.png'), fullPage: true });

  // The changes tab: the plain words first, then the detail.
  await page.locator('[data-testid="tab-changes"]').click();
  await expect(page.locator('[data-testid="changes-summary"]')).toHaveText(CLICK_CHANGES.description);
  await expect(page.locator('[data-testid="changes-removed"]')).toContainText('form "checkout"');
  await expect(page.locator('[data-testid="changes-added"]')).toContainText('h1 heading "Internal Server Error"');
  await page.locator('[data-testid="changes"]').screenshot({ path: screenshotPath.replace(/\.png$/, '-changes.png') });

  // ↓ to the failure signal, ↑ ↑ back past the click to the agent's step; the panel follows.
  await page.keyboard.press('ArrowDown');
  expect(await selectedSeq(page)).toBe('6');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  expect(await selectedSeq(page)).toBe('4');
  await page.keyboard.press('ArrowUp');
  expect(await selectedSeq(page)).toBe('3');
  await page.locator('[data-testid="tab-dom"]').click();
  await expect(page.locator('[data-testid="snapshot"] [data-testid="target-node"] .afr-node-name')).toHaveText('"Name"');
}

test('both viewers show the page at the click step: target marked, red dot on the frame (placed by its own viewport after a resize), changes, ↑/↓', async ({ recorder, site }, testInfo) => {
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    return page;
  };

  // The recorder's own bundle of the demo checkout, in the extension's viewer.
  const { bundle: real, resizedAt, buttons } = await recordCheckoutFailure(recorder, site);
  expectFrameViewports(real, resizedAt);
  const stored = watch(await recorder.context.newPage());
  await stored.setViewportSize({ width: 1280, height: 900 });
  await stored.goto(`chrome-extension://${recorder.extensionId}/viewer.html?id=${real.manifest.bundle_id}`);
  await checkRealClickStep(stored, real, buttons, testInfo.outputPath('viewer-step-real-bundle.png'));

  // A bundle built from schema-valid data, whose viewer.html carries the step pages, in both viewers.
  const expectedViewer = await loadExpectedViewer();
  const zip = await buildZip(expectedViewer.script);
  // `afr validate` accepts the page: the step pages inside its data parse back to the data it was built from.
  const archive = await openBundleZip(new Uint8Array(zip));
  const json = new Map<string, unknown>();
  for (const file of [MANIFEST_FILE, STEPS_FILE, DIAGNOSTICS_FILE, SNAPSHOT_FILE, NETWORK_HAR_FILE]) {
    const read = readJsonFile(archive, file);
    if (read.ok) json.set(file, read.value);
  }
  expect(await checkViewerHtml(archive, json, expectedViewer)).toEqual([]);

  // The extension's viewer, the zip picked from disk.
  const extension = watch(await recorder.context.newPage());
  await extension.setViewportSize({ width: 1280, height: 900 });
  await extension.goto(`chrome-extension://${recorder.extensionId}/viewer.html`);
  await extension.locator('[data-testid="file-input"]').setInputFiles({ name: 'bundle.zip', mimeType: 'application/zip', buffer: zip });
  await checkStepView(extension, testInfo.outputPath('viewer-step-extension.png'));

  // viewer.html of the extracted zip, from file://.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-timeline-viewer-'));
  try {
    for (const [name, data] of archive.files) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), data);
    }
    const standalone = watch(await recorder.context.newPage());
    await standalone.setViewportSize({ width: 1280, height: 900 });
    await standalone.goto(pathToFileURL(path.join(dir, 'viewer.html')).href);
    await checkStepView(standalone, testInfo.outputPath('viewer-step-file.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(problems).toEqual([]);
});
