import { writeFileSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import type { RecorderBrowser } from './support/launch';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';
import { decodeGrayFrames, decodeRgbFrames, jpegFramesOf, lumaStats, redPixels, type Box } from './support/pixels';

/** The mask fill, #6b7280, as 8-bit luma (BT.601, full range, as a JPEG's Y plane). */
const MASK_LUMA = 0.299 * 0x6b + 0.587 * 0x72 + 0.114 * 0x80;

/** Opaque mask: uniform, at the mask's grey. */
const isMasked = (s: { mean: number; std: number }) => s.std < 8 && Math.abs(s.mean - MASK_LUMA) < 12;
/**
 * An empty white field: at most a caret and a focus ring (Playwright's `fill` focuses a field a moment
 * before it sets the value), far from the ink of any typed value (10 %+ of the box).
 */
const isBlank = (s: { mean: number; ink: number }) => s.mean > 200 && s.ink < 0.02;

/**
 * Every frame of a bundle, decoded to gray (one ffmpeg for them all), with `keep()`, which saves it
 * beside the test's results (a frame that fails a check, to be looked at).
 */
async function* framesOf(bundle: OpenedBundle, testInfo: TestInfo) {
  for await (const { frame, img } of decodeGrayFrames(jpegFramesOf(bundle))) {
    const { jpeg } = frame;
    yield { frame, img, jpeg, keep: () => writeFileSync(testInfo.outputPath(frame.name.replace('/', '-')), jpeg) };
  }
}

const CAPTURE_MODES = [
  { label: 'visibleTab', captureSource: 'visibleTab', settings: {} },
  { label: 'screencast', captureSource: 'screencast', settings: {} },
  // The default: the screencast holds while the agent fills fields back to back, captureVisibleTab meanwhile.
  { label: 'auto', captureSource: 'auto', settings: {} },
  // Downscaled frames of a window smaller than the emulated viewport: placed by the frame's own metadata.
  { label: 'screencast at 640×360', captureSource: 'screencast', settings: { maxWidth: 640, maxHeight: 360 } },
] as const;

for (const { label, captureSource, settings } of CAPTURE_MODES) {
  test(`${label}: typed personal data, password fields, withheld elements and addresses in text are opaque in every stored frame`, async ({
    recorder,
    site,
  }, testInfo) => {
    const { worker } = recorder;
    await afr(worker, 'configure', { captureSource, ...settings, redaction: { selectors: ['.account-balance'], fieldNamePatterns: [], textPatterns: [] } });
    const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
    await page.goto(`${site.origin}/pixels.html`);
    await waitForFrames(worker, 2);

    // A script going through the form back to back (in auto mode: a burst, recorded by
    // captureVisibleTab), filling plain text fields that only become sensitive through what is typed.
    const burstFrom = Date.now();
    while (Date.now() - burstFrom < 800) {
      await page.click('#contact');
      await page.click('#note');
    }
    await page.fill('#contact', SECRETS.email);
    await page.fill('#note', `call ${SECRETS.phone}`);
    // One key at a time, as a person or a keyboard-driving agent types.
    await page.locator('#extra').pressSequentially(SECRETS.card, { delay: 15 });
    await page.fill('#pw', SECRETS.password);
    await page.evaluate((email) => {
      document.getElementById('para')!.textContent = `Questions? Write to ${email} before Friday, thanks.`;
      (document.activeElement as HTMLElement | null)?.blur();
    }, SECRETS.notesEmail);
    const typedAt = Date.now();
    await waitForFrames(worker, (await afr(worker, 'status')).frames + 4);

    const viewportWidth = page.viewportSize()!.width;
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    // Uniform in every frame: empty before the typing, the mask after; the balance always masked.
    const fields: Record<string, Box> = {
      contact: await box('#contact'),
      note: await box('#note'),
      extra: await box('#extra'),
      password: await box('#pw'),
      balance: await box('.account-balance'),
    };
    // Only the address inside the paragraph: the rest of its text stays readable.
    const address = await page.evaluate((email) => {
      const text = document.getElementById('para')!.firstChild!;
      const start = text.nodeValue!.indexOf(email);
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + email.length);
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }, SECRETS.notesEmail);
    const control = await box('#city');
    const para = await box('#para');
    const paragraphStart = { ...para, width: address.x - para.x - 8 };

    const id = await afr(worker, 'fail', { reason: 'assertion_failed', label: 'pixel redaction check' });
    const bundle = await exportBundle(worker, id);
    expect(bundle.manifest.frames.length).toBeGreaterThanOrEqual(4);

    let framesAfterTyping = 0;
    for await (const { frame, img, jpeg, keep } of framesOf(bundle, testInfo)) {
      const after = frame.ts >= typedAt + 300;
      // Every frame: each field masked, or still empty before the typing; after it, each region masked.
      for (const [name, region] of Object.entries(after ? { ...fields, 'address in text': address } : fields)) {
        const stats = lumaStats(img, region, viewportWidth);
        const ok = isMasked(stats) || (!after && isBlank(stats));
        if (!ok) keep();
        expect(ok, `${name} in ${frame.name} (ts ${frame.ts}, typed at ${typedAt}) is neither masked nor empty: ${JSON.stringify(stats)}`).toBe(true);
      }
      if (!after) continue;
      framesAfterTyping++;
      // Besides the mode's own frames, a failure's bundle holds a screenshot of a screencasting tab taken at the signal.
      if (captureSource !== 'auto') expect([captureSource, 'screenshot']).toContain(frame.source);
      // What is not secret is still plainly visible (and a field with text in it is not taken for empty).
      const controlStats = lumaStats(img, control, viewportWidth);
      expect(controlStats.std, `the control field in ${frame.name}`).toBeGreaterThan(25);
      expect(isBlank(controlStats)).toBe(false);
      expect(lumaStats(img, paragraphStart, viewportWidth, 0).std, `the paragraph's start in ${frame.name}`).toBeGreaterThan(25);
      if (framesAfterTyping === 1) {
        // Kept for a person to look at: `--output DIR` puts it under DIR/<test>/.
        const file = testInfo.outputPath(`masked-frame-${label.replace(/\W+/g, '-')}.jpeg`);
        writeFileSync(file, jpeg);
        await testInfo.attach('masked frame', { path: file, contentType: 'image/jpeg' });
      }
    }
    expect(framesAfterTyping).toBeGreaterThanOrEqual(2);
    // auto: the fields filled back to back were a burst, recorded by captureVisibleTab.
    expect(bundle.manifest.frames.map((f) => f.source)).toContain(captureSource === 'auto' ? 'visibleTab' : captureSource);

    // Six regions in each frame after the typing (fields still empty before count fewer).
    const inBundle = (bundle.manifest as { capture?: { masked_regions?: number } }).capture?.masked_regions;
    if (inBundle !== undefined) expect(inBundle).toBeGreaterThanOrEqual(framesAfterTyping * 6);
    const sinceStart = (bundle.diagnostics.capture as { masked_regions?: number }).masked_regions;
    if (sinceStart !== undefined) expect(sinceStart).toBeGreaterThan(0);
    expect(findSecrets(bundle, secretVariants())).toEqual([]);
  });
}

test('after a navigation, no frame shows the new page before it reported its sensitive regions', async ({ recorder, site }, testInfo) => {
  const { worker } = recorder;
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/pixels.html`);
  await page.fill('#contact', SECRETS.email);
  await waitForFrames(worker, 3);
  // The new document shows an address from its first paint: no event announces it.
  for (let i = 0; i < 3; i++) {
    await page.goto(`${site.origin}/pixels.html?prefill=${i}`);
    await waitForFrames(worker, (await afr(worker, 'status')).frames + 2);
  }
  const id = await afr(worker, 'fail', { reason: 'assertion_failed', label: 'navigation check' });
  const bundle = await exportBundle(worker, id);
  const contact = (await page.locator('#contact').boundingBox())!;
  const viewportWidth = page.viewportSize()!.width;
  let masked = 0;
  for await (const { frame, img, keep } of framesOf(bundle, testInfo)) {
    const stats = lumaStats(img, contact, viewportWidth);
    if (!isMasked(stats) && !isBlank(stats)) keep();
    expect(isMasked(stats) || isBlank(stats), `contact in ${frame.name} is neither masked nor empty: ${JSON.stringify(stats)}`).toBe(true);
    if (isMasked(stats)) masked++;
  }
  expect(masked).toBeGreaterThanOrEqual(6);
  expect(findSecrets(bundle, [...secretVariants(), 'prefilled.by.page@example.net'])).toEqual([]);
});

test('while the next page has not painted yet, no frame shows the page before it unmasked', async ({ recorder, site }, testInfo) => {
  const { worker } = recorder;
  await afr(worker, 'configure', { captureSource: 'visibleTab' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  for (let i = 0; i < 3; i++) {
    await page.goto(`${site.origin}/pixels.html`);
    await page.fill('#contact', SECRETS.email);
    await waitForFrames(worker, (await afr(worker, 'status')).frames + 1);
    // The quota allows a capture again: the next page's first step (its content script starting)
    // brings one at once, while the screen still shows this page.
    await page.waitForTimeout(700);
    // The next page waits 1.5 s for a render-blocking stylesheet: its content script has started,
    // the screen still shows the address typed on this one.
    await page.goto(`${site.origin}/slow-paint.html`);
  }
  await page.goto(`${site.origin}/pixels.html`);
  const contact = (await page.locator('#contact').boundingBox())!;
  const bundle = await exportBundle(worker, await afr(worker, 'fail', { reason: 'assertion_failed', label: 'paint holding check' }));
  const viewportWidth = page.viewportSize()!.width;
  expect(bundle.manifest.frames.length).toBeGreaterThanOrEqual(3);
  for await (const { frame, img, keep } of framesOf(bundle, testInfo)) {
    const stats = lumaStats(img, contact, viewportWidth);
    if (!isMasked(stats) && !isBlank(stats)) keep();
    expect(isMasked(stats) || isBlank(stats), `the address in ${frame.name}: ${JSON.stringify(stats)}`).toBe(true);
  }
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test('a page loaded while frames were not recorded starts reporting its regions when they are: no frame shows it unmasked', async ({ recorder, site }, testInfo) => {
  const { worker } = recorder;
  await afr(worker, 'configure', { captureLevel: 'metadata' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/pixels.html`);
  await page.fill('#contact', SECRETS.email);
  await page.waitForTimeout(500);
  expect((await afr(worker, 'status')).frames).toBe(0);
  await afr(worker, 'configure', { captureLevel: 'full' });
  await waitForFrames(worker, 3);
  const bundle = await exportBundle(worker, await afr(worker, 'fail', { reason: 'assertion_failed', label: 'level raised' }));
  const contact = (await page.locator('#contact').boundingBox())!;
  const viewportWidth = page.viewportSize()!.width;
  expect(bundle.manifest.frames.length).toBeGreaterThanOrEqual(3);
  for await (const { frame, img, keep } of framesOf(bundle, testInfo)) {
    const stats = lumaStats(img, contact, viewportWidth);
    if (!isMasked(stats)) keep();
    expect(isMasked(stats), `the address in ${frame.name}: ${JSON.stringify(stats)}`).toBe(true);
  }
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test("a card form in another origin's iframe is opaque in every stored frame: the page cannot see into it", async ({ recorder, site }, testInfo) => {
  const { worker } = recorder;
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  // The payment provider: the same server under another host name, so another origin (and renderer process).
  const provider = site.origin.replace('127.0.0.1', 'localhost');
  await page.goto(`${site.origin}/payment.html?frame=${encodeURIComponent(`${provider}/frame-card.html`)}`);
  const cardForm = page.frameLocator('#pay');
  await cardForm.locator('#fcc').fill(SECRETS.frameCard);
  await cardForm.locator('#fotp').pressSequentially(SECRETS.frameOtp, { delay: 15 });
  const typedAt = Date.now();
  await waitForFrames(worker, (await afr(worker, 'status')).frames + 3);

  const bundle = await exportBundle(worker, await afr(worker, 'fail', { reason: 'assertion_failed', label: 'cross-origin frame check' }));
  const frameBox = (await page.locator('#pay').boundingBox())!;
  const intro = (await page.locator('#intro').boundingBox())!;
  const viewportWidth = page.viewportSize()!.width;
  let maskedAfterTyping = 0;
  for await (const { frame, img, keep } of framesOf(bundle, testInfo)) {
    const stats = lumaStats(img, frameBox, viewportWidth);
    // Before the provider's page is shown the box may be empty; from then on it is masked whole.
    if (!isMasked(stats) && !isBlank(stats)) keep();
    expect(isMasked(stats) || isBlank(stats), `the payment frame in ${frame.name}: ${JSON.stringify(stats)}`).toBe(true);
    if (frame.ts >= typedAt + 300) {
      expect(isMasked(stats), `the payment frame in ${frame.name} after the typing: ${JSON.stringify(stats)}`).toBe(true);
      maskedAfterTyping++;
    }
    // The page's own text stays readable.
    expect(lumaStats(img, intro, viewportWidth, 0).std, `the page's text in ${frame.name}`).toBeGreaterThan(25);
  }
  expect(maskedAfterTyping).toBeGreaterThanOrEqual(2);
  // The frame's own content script recorded the typing, its values withheld.
  const typed = bundle.steps.steps.filter((s) => s.kind === 'input');
  expect(typed.length).toBeGreaterThanOrEqual(2);
  expect(typed.every((s) => s.value === null && s.value_redacted)).toBe(true);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

// The page's own scroll, placed by the scroll each screencast frame says it shows; an inner
// scroller's, by the page's answer to the question each frame asks (`redaction/sync`).
for (const { what, query } of [
  { what: 'the page', query: '' },
  { what: 'an inner scroller', query: '?inner' },
  { what: 'an inner scroller of a busy page', query: '?inner&busy' },
]) {
  test(`${what} scrolled with the mouse wheel (the compositor moves it before the page hears of it): no stored frame shows a card field`, async ({
    recorder,
    site,
  }, testInfo) => {
    // Decoding every frame of the bundle takes a while; more on a loaded machine.
    test.setTimeout(180_000);
    const page = await screencastAt30(recorder, `${site.origin}/scroll.html${query}`);
    await page.mouse.move(640, 360);
    const scrollFrom = Date.now();
    for (const dy of [...Array<number>(25).fill(120), ...Array<number>(25).fill(-120)]) {
      await page.mouse.wheel(0, dy);
      await page.waitForTimeout(40);
    }
    const scrollTo = Date.now();
    await page.waitForTimeout(500);
    const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
    // Frames of the scroll itself were stored (not dropped), not only of the still page around it.
    const scrolling = bundle.manifest.frames.filter((f) => f.source === 'screencast' && f.ts >= scrollFrom && f.ts <= scrollTo);
    expect(scrolling.length).toBeGreaterThanOrEqual(30);
    expect(await redLeaks(bundle, testInfo)).toEqual([]);
  });
}

// A transform animation runs on the compositor: no event tells the page its fields moved, so each
// frame's place for them comes from the page's answer to its question, swept from the last report.
for (const { what, query } of [
  { what: 'sliding', query: '' },
  { what: 'sliding, turning and growing', query: '?rotate' },
]) {
  test(`card fields ${what} in a CSS transform animation: no stored frame shows them`, async ({ recorder, site }, testInfo) => {
    test.setTimeout(180_000);
    const page = await screencastAt30(recorder, `${site.origin}/slide.html${query}`);
    const from = Date.now();
    await page.waitForTimeout(3_000);
    const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'probe' }));
    // Frames of the animation were stored (not dropped): it repaints every frame.
    const animated = bundle.manifest.frames.filter((f) => f.source === 'screencast' && f.ts >= from).length;
    expect(animated).toBeGreaterThanOrEqual(30);
    // The fields were on screen and masked (both of them, in each of those frames at least) ...
    expect(bundle.manifest.capture.masked_regions).toBeGreaterThanOrEqual(2 * animated);
    expect(await redLeaks(bundle, testInfo)).toEqual([]);
    // ... and the masks stayed where the fields go: the heading above their track is readable throughout.
    const heading = (await page.locator('h1').boundingBox())!;
    for await (const { frame, img } of framesOf(bundle, testInfo)) {
      expect(lumaStats(img, heading, page.viewportSize()!.width, 0).std, `the heading in ${frame.name}`).toBeGreaterThan(25);
    }
  });
}

/** Opens `url` recorded by the screencast at 30 fps (every frame the page paints, near enough), once frames come. */
async function screencastAt30(recorder: RecorderBrowser, url: string): Promise<Page> {
  await afr(recorder.worker, 'configure', { captureSource: 'screencast', fps: 30 });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(url);
  const path = new URL(url).pathname;
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.find((t) => t.url?.includes(path))?.source, { timeout: 15_000 }).toBe('screencast');
  await waitForFrames(recorder.worker, 5);
  return page;
}

/** Frames of the bundle showing part of a (bright red) card field, each saved beside the test's results. */
async function redLeaks(bundle: OpenedBundle, testInfo: TestInfo): Promise<string[]> {
  const leaks: string[] = [];
  for await (const { frame, img } of decodeRgbFrames(jpegFramesOf(bundle))) {
    const red = redPixels(img);
    // A few stray pixels at a mask's edge are JPEG ringing; a field's visible strip is thousands.
    if (red > 40) {
      leaks.push(`${frame.name} (${frame.source}): ${red} red pixels`);
      writeFileSync(testInfo.outputPath(frame.name.replace('/', '-')), frame.jpeg);
    }
  }
  return leaks;
}

test('credentials written in page text (a JWT, ghp_, AKIA, a Bearer value in a <pre>) are opaque in every stored frame and in no file', async ({ recorder, site }, testInfo) => {
  const { worker } = recorder;
  // captureVisibleTab takes a frame of the still page every turn (a screencast waits for repaints).
  await afr(worker, 'configure', { captureSource: 'visibleTab' });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/credentials.html`);
  const tail = 'Zq7Xw3Lk9Pm2Rt5Vn8Bc4Hd6Jf1Gs0Ay';
  const credentials = [
    `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from('{"sub":"pixels-user","iat":1764000000}').toString('base64url')}.${tail}abcdefghij`,
    `ghp_${tail}Qr7T`,
    'AKIAZ7XQ3PIXELS2K9T4',
    `Bearer gho_${tail}Wx2Y`,
  ];
  // Bright red text on white: a frame that shows any of it has hundreds of red pixels.
  await page.evaluate((lines) => {
    const pre = document.createElement('pre');
    pre.id = 'planted-credentials';
    pre.style.cssText = 'color:#ff0000;font:bold 22px monospace;background:#fff;white-space:pre-wrap';
    pre.textContent = lines.join('\n');
    document.querySelector('main')!.prepend(pre);
  }, credentials);
  await waitForFrames(worker, (await afr(worker, 'status')).frames + 4);
  const bundle = await exportBundle(worker, await afr(worker, 'fail', { reason: 'assertion_failed', label: 'credentials in pixels' }));
  // Frames of the page with its credentials were stored (masked, not dropped) ...
  expect(bundle.manifest.capture.masked_regions).toBeGreaterThanOrEqual(4);
  // ... and none shows their red ink; no byte of them is in any file.
  expect(await redLeaks(bundle, testInfo)).toEqual([]);
  expect(findSecrets(bundle, [...credentials, ...credentials.map((c) => c.replace(/^Bearer /, ''))])).toEqual([]);
});
