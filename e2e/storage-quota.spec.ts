import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './support/fixtures';
import { afr } from './support/afr';
import { exportBundle, ffprobe } from './support/bundle';
import { EXTENSION_DIR, launchWithRecorder } from './support/launch';

/**
 * A full disk. The extension asks for `unlimitedStorage`, so Chromium only refuses its writes when the
 * disk itself is nearly full; this copy of the build goes without it, and the DevTools protocol gives
 * its origin a 600 KB quota: about 4 s of frames at 8 fps. IndexedDB then refuses writes, and keeps
 * refusing after the recorder deletes records (its files shrink only when compacted).
 */
function extensionWithoutUnlimitedStorage(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-quota-ext-'));
  cpSync(EXTENSION_DIR, dir, { recursive: true });
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { permissions: string[] };
  manifest.permissions = manifest.permissions.filter((p) => p !== 'unlimitedStorage');
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return dir;
}

test('when storage runs out, recording goes on in memory and the failure still gets its whole bundle', async ({ site }) => {
  const extensionDir = extensionWithoutUnlimitedStorage();
  const recorder = await launchWithRecorder({ extensionDir });
  try {
    const logs: string[] = [];
    recorder.worker.on('console', (m) => logs.push(m.text()));
    const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
    const cdp = await recorder.context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: `chrome-extension://${recorder.extensionId}`, quotaSize: 600_000 });
    await page.goto(`${site.origin}/errors.html`); // a spinner: frames all the time
    const status = () => afr(recorder.worker, 'status');
    await expect.poll(async () => (await status()).storage.framesInMemory, { timeout: 30_000 }).toBeGreaterThanOrEqual(16);
    const full = await status();
    expect(full.storage.quotaErrors).toBeGreaterThan(0);
    expect(full.storage.lastError).toMatch(/^QuotaExceededError/);
    expect(full.recording).toBe(true);
    // Frames keep coming: the ring holds more than before.
    await expect.poll(async () => (await status()).frames, { timeout: 10_000 }).toBeGreaterThan(full.frames);

    const id = await afr(recorder.worker, 'fail', { reason: 'probe' });
    expect((await afr(recorder.worker, 'listBundles')).map((b) => b.id)).toContain(id);
    const bundle = await exportBundle(recorder.worker, id);
    expect(bundle.manifest.frame_count).toBeGreaterThanOrEqual(16);
    // The clip has every frame, those kept in memory included (they reach the encoder in its message).
    expect(bundle.manifest.clip).not.toBeNull();
    const clip = await ffprobe(bundle.files.get('failure.mp4')!);
    expect(clip.codec).toBe('h264');
    const expected = bundle.manifest.frames.reduce((s, f) => s + f.duration_ms, 0) / 1000;
    expect(Math.abs(clip.durationSeconds - expected)).toBeLessThan(0.3);
    expect(bundle.steps.steps.some((s) => s.url?.includes('/errors.html'))).toBe(true);
    expect(logs).toContainEqual(expect.stringMatching(/^\[afr\] bundle kept in (extension storage|memory only), IndexedDB refused it: QuotaExceededError/));
    // Kept outside IndexedDB (no room there), the bundle still opens in the extension’s viewer.
    const viewer = await recorder.context.newPage();
    await viewer.goto(`chrome-extension://${recorder.extensionId}/viewer.html?id=${id}`);
    await expect(viewer.locator('[data-testid="failure-reason"]')).toHaveText('probe');
  } finally {
    await recorder.close();
    rmSync(extensionDir, { recursive: true, force: true });
  }
});
