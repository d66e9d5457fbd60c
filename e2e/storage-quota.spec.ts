import { test, expect } from './support/fixtures';
import { afr } from './support/afr';
import { exportBundle, ffprobe } from './support/bundle';
import { launchWithStorageQuota } from './support/storage-quota';

test('when storage runs out, recording goes on in memory and the failure still gets its whole bundle', async ({ site }) => {
  const quotaLimited = await launchWithStorageQuota();
  const { recorder, page } = quotaLimited;
  try {
    const logs: string[] = [];
    recorder.worker.on('console', (m) => logs.push(m.text()));
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
    await quotaLimited.close();
  }
});
