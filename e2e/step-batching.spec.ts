import { test, expect } from './support/fixtures';
import { afr } from './support/afr';
import { exportBundle } from './support/bundle';

// A page sends a quick run of steps as one message: none may be lost or reordered on the way.
test.beforeEach(async ({ recorder }) => {
  await afr(recorder.worker, 'configure', { autoDownload: false, postFailureSeconds: 0, failureCooldownMs: 0 });
});

test('an agent acting as fast as it can: every step is in the bundle, the last one before the failure included', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/checkout.html`);
  for (let round = 0; round < 10; round++) {
    await page.fill('#notes', `note ${round}`);
    await page.press('#notes', 'Tab');
  }
  await page.click('h1');
  // At once: the click may still be waiting in the page's batch when the failure is signalled.
  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'agent_failure' }));
  const observed = bundle.steps.steps.filter((s) => s.source === 'observer' && s.kind !== 'navigate');
  const expected = Array.from({ length: 10 }, (_, round) => [`type note ${round}`, 'press Tab']).flat();
  expect(observed.map((s) => (s.kind === 'input' ? `${s.action} ${s.value}` : s.action))).toEqual([...expected, 'click']);
});

for (const [where, otherOrigin] of [
  ['to a page of the same site', (origin: string) => origin],
  ['to another site (another renderer process)', (origin: string) => origin.replace('127.0.0.1', 'localhost')],
] as const) {
  test(`a value typed just before the agent navigates ${where} is in the bundle`, async ({ recorder, site }) => {
    const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
    await page.goto(`${site.origin}/checkout.html`);
    await page.click('h1');
    // No click, Enter or Tab after the value: its step is sent as the page is left.
    await page.fill('#notes', 'leave at the door');
    await page.goto(`${otherOrigin(site.origin)}/index.html`);
    const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'agent_failure' }));
    const observed = bundle.steps.steps.filter((s) => s.source === 'observer');
    expect(observed.map((s) => `${s.action} ${s.value ?? ''}`.trim())).toEqual(['navigate', 'click', 'type leave at the door', 'navigate']);
    expect(new URL(observed.at(-1)!.url ?? '').hostname).toBe(new URL(otherOrigin(site.origin)).hostname);
  });
}
