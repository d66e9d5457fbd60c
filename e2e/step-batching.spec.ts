import { test, expect } from './support/fixtures';
import { afr } from './support/afr';
import { exportBundle, findSecrets } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';

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
  test(`values typed just before the agent navigates ${where} are in the bundle, masked`, async ({ recorder, site }) => {
    const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
    await page.goto(`${site.origin}/checkout.html`);
    await page.click('h1');
    await page.fill('#card-number', SECRETS.card);
    // No click, Enter or Tab after the last value: its step is sent as the page is left.
    await page.fill('#notes', `leave at the door or write to ${SECRETS.notesEmail}`);
    await page.goto(`${otherOrigin(site.origin)}/index.html`);
    const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'agent_failure' }));
    const observed = bundle.steps.steps.filter((s) => s.source === 'observer');
    expect(observed.map((s) => `${s.action} ${s.target && typeof s.target === 'object' ? s.target.selector : ''}`.trim())).toEqual([
      'navigate',
      'click body > main > h1',
      'type #card-number',
      'type #notes',
      'navigate',
    ]);
    expect(observed[2]).toMatchObject({ value: null, value_redacted: true });
    expect(observed[3]!.value).toMatch(/^leave at the door or write to \S+$/);
    expect(new URL(observed.at(-1)!.url ?? '').hostname).toBe(new URL(otherOrigin(site.origin)).hostname);
    expect(findSecrets(bundle, secretVariants())).toEqual([]);
  });
}
