import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle } from './support/bundle';

test('junk, malformed and oversized messages are ignored and a valid fail still works afterwards', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(`${site.origin}/index.html`);
  await waitForFrames(recorder.worker, 1);

  await page.evaluate(() => {
    const post = (m: unknown) => window.postMessage(m, '*');
    post('fail');
    post(null);
    post(42);
    post({ source: 'agent-flight-recorder' });
    post({ source: 'agent-flight-recorder', type: 'fail' });
    post({ source: 'agent-flight-recorder', type: 'fail', reason: 12 });
    post({ source: 'agent-flight-recorder', type: 'fail', reason: '' });
    post({ source: 'agent-flight-recorder', type: 'explode', reason: 'x' });
    post({ source: 'agent-flight-recorder', type: 'fail', reason: 'x'.repeat(2 * 1024 * 1024) });
    post({ source: 'agent-flight-recorder', type: 'step', action: 'y'.repeat(64 * 1024) });
    post({ source: 'agent-flight-recorder', type: 'step', action: 'a', target: new Array(1_000_000).fill('z') });
    post({ source: 'agent-flight-recorder', type: 'fail', reason: 'x', extra: { deep: { deeper: [1, 2, 3] } } });
    post({ source: 'someone-else', type: 'fail', reason: 'not for us' });
    for (let i = 0; i < 2_000; i++) post({ source: 'agent-flight-recorder', type: 'step', action: `spam ${i}` });
  });
  await page.waitForTimeout(1_500);
  expect(await afr(recorder.worker, 'listBundles')).toEqual([]);
  const status = await afr(recorder.worker, 'status');
  expect(status.recording).toBe(true);
  expect(status.steps).toBeLessThan(500);
  expect(warnings.some((w) => w.includes('[afr]'))).toBe(true);

  await expect(afr(recorder.worker, 'configure', { bufferSeconds: -3 } as never)).rejects.toThrow(/bufferSeconds/);
  await expect(afr(recorder.worker, 'fail', { reason: '' })).rejects.toThrow(/reason/);
  await expect(afr(recorder.worker, 'exportBundle', '../../etc/passwd')).rejects.toThrow(/not a bundle id/);

  const framesBefore = (await afr(recorder.worker, 'status')).capturesOk;
  await page.waitForTimeout(1_500);
  expect((await afr(recorder.worker, 'status')).capturesOk).toBeGreaterThan(framesBefore);

  await page.evaluate(() => window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason: 'assertion_failed', label: 'after the junk' }, '*'));
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_label).toBe('after the junk');
  expect(JSON.stringify(bundle.steps)).not.toContain('yyyyyyyy');
});
