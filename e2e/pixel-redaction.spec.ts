import { execFile } from 'node:child_process';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames } from './support/afr';
import { exportBundle, findSecrets } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';

/** The mask fill, #6b7280, as 8-bit luma (BT.601, full range, as a JPEG's Y plane). */
const MASK_LUMA = 0.299 * 0x6b + 0.587 * 0x72 + 0.114 * 0x80;

interface Gray {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Decodes a JPEG to 8-bit gray with the ffmpeg CLI. */
async function decodeGray(jpeg: Buffer, width: number, height: number): Promise<Gray> {
  const child = execFile('ffmpeg', ['-v', 'error', '-f', 'jpeg_pipe', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`))));
  });
  child.stdin!.end(jpeg);
  await done;
  const pixels = Buffer.concat(chunks);
  expect(pixels.length).toBe(width * height);
  return { width, height, pixels };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Mean and standard deviation of the luma inside `box` (CSS px of a `viewportWidth` page, scaled to the image), shrunk by `inset` CSS px. */
function lumaStats(img: Gray, box: Box, viewportWidth: number, inset = 3): { mean: number; std: number } {
  const s = img.width / viewportWidth;
  const x0 = Math.ceil((box.x + inset) * s);
  const y0 = Math.ceil((box.y + inset) * s);
  const x1 = Math.floor((box.x + box.width - inset) * s);
  const y1 = Math.floor((box.y + box.height - inset) * s);
  let n = 0;
  let sum = 0;
  let sq = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const v = img.pixels[y * img.width + x]!;
      n++;
      sum += v;
      sq += v * v;
    }
  }
  if (!n) throw new Error(`empty box ${JSON.stringify(box)}`);
  const mean = sum / n;
  return { mean, std: Math.sqrt(Math.max(0, sq / n - mean * mean)) };
}

test('typed personal data, password fields, withheld elements and addresses in text are opaque in every stored frame', async ({ recorder, site }, testInfo) => {
  const { worker } = recorder;
  await afr(worker, 'configure', { redaction: { selectors: ['.account-balance'], fieldNamePatterns: [], textPatterns: [] } });
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/pixels.html`);
  await waitForFrames(worker, 2);

  // Plain text fields that only become sensitive through what is typed into them.
  await page.fill('#contact', SECRETS.email);
  await page.fill('#note', `call ${SECRETS.phone}`);
  await page.fill('#extra', SECRETS.card);
  await page.fill('#pw', SECRETS.password);
  await page.evaluate((email) => {
    document.getElementById('para')!.textContent = `Questions? Write to ${email} before Friday, thanks.`;
    (document.activeElement as HTMLElement | null)?.blur();
  }, SECRETS.notesEmail);
  const typedAt = Date.now();
  await waitForFrames(worker, (await afr(worker, 'status')).frames + 4);

  const viewportWidth = page.viewportSize()!.width;
  const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
  const sensitive: Record<string, Box> = {
    contact: await box('#contact'),
    note: await box('#note'),
    extra: await box('#extra'),
    password: await box('#pw'),
    balance: await box('.account-balance'),
    // Only the address inside the paragraph: the rest of its text stays readable.
    'address in text': await page.evaluate((email) => {
      const text = document.getElementById('para')!.firstChild!;
      const start = text.nodeValue!.indexOf(email);
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + email.length);
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }, SECRETS.notesEmail),
  };
  const control = await box('#city');
  const paragraphStart = { ...(await box('#para')), width: sensitive['address in text']!.x - (await box('#para')).x - 8 };

  const id = await afr(worker, 'fail', { reason: 'assertion_failed', label: 'pixel redaction check' });
  const bundle = await exportBundle(worker, id);
  expect(bundle.manifest.frames.length).toBeGreaterThanOrEqual(4);

  let framesAfterTyping = 0;
  for (const frame of bundle.manifest.frames) {
    const jpeg = bundle.files.get(frame.name)!;
    const img = await decodeGray(jpeg, frame.width, frame.height);
    // Every frame: nothing legible where a secret is (uniform: the mask, or a field still empty).
    for (const [name, region] of Object.entries(sensitive)) {
      const { std } = lumaStats(img, region, viewportWidth);
      expect(std, `${name} in ${frame.name} is not uniform`).toBeLessThan(8);
    }
    if (frame.ts < typedAt + 300) continue;
    framesAfterTyping++;
    // Once typed: the regions are the mask, and what is not secret is still plainly visible.
    for (const [name, region] of Object.entries(sensitive)) {
      const { mean } = lumaStats(img, region, viewportWidth);
      expect(Math.abs(mean - MASK_LUMA), `${name} in ${frame.name} is not masked (mean luma ${mean.toFixed(1)})`).toBeLessThan(12);
    }
    expect(lumaStats(img, control, viewportWidth).std, `the control field in ${frame.name}`).toBeGreaterThan(25);
    expect(lumaStats(img, paragraphStart, viewportWidth, 0).std, `the paragraph's start in ${frame.name}`).toBeGreaterThan(25);
    if (framesAfterTyping === 1) await testInfo.attach('masked-frame.jpeg', { body: jpeg, contentType: 'image/jpeg' });
  }
  expect(framesAfterTyping).toBeGreaterThanOrEqual(2);

  const capture = bundle.diagnostics.capture as { masked_regions?: number };
  if (capture.masked_regions !== undefined) expect(capture.masked_regions).toBeGreaterThanOrEqual(framesAfterTyping * 6);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test('after a navigation, no frame shows the new page before it reported its sensitive regions', async ({ recorder, site }) => {
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
  for (const frame of bundle.manifest.frames) {
    const img = await decodeGray(bundle.files.get(frame.name)!, frame.width, frame.height);
    const { mean, std } = lumaStats(img, contact, viewportWidth);
    expect(std, `contact in ${frame.name}`).toBeLessThan(8);
    if (Math.abs(mean - MASK_LUMA) < 12) masked++;
  }
  expect(masked).toBeGreaterThanOrEqual(6);
  expect(findSecrets(bundle, [...secretVariants(), 'prefilled.by.page@example.net'])).toEqual([]);
});
