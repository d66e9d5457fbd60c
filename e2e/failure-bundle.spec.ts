import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle, ffprobe, findSecrets } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';

test('a fail message bundles frames, steps, a redacted snapshot and a real clip, with no secret anywhere', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/secrets.html`);

  await page.fill('#pw', SECRETS.password);
  await page.fill('#pw2', SECRETS.newPassword);
  await page.fill('#mail', SECRETS.email);
  await page.fill('#tel', SECRETS.phone);
  await page.fill('#cc', SECRETS.card);
  await page.fill('#cvv', SECRETS.cvv);
  await page.fill('#otp', SECRETS.otp);
  await page.fill('#ssn', SECRETS.ssn);
  await page.fill('#iban-field', SECRETS.iban);
  await page.fill('#api', SECRETS.apiToken);
  await page.fill('#pin', SECRETS.pin);
  await page.fill('#notes', `Call ${SECRETS.notesPhone} or mail ${SECRETS.notesEmail}`);
  await page.evaluate((email) => {
    document.getElementById('owner-mail')!.textContent = email;
  }, SECRETS.email);
  await page.locator('#shadow-host').locator('#spw').fill(SECRETS.shadowPassword);
  await page.locator('#shadow-host').locator('#smail').fill(SECRETS.shadowEmail);
  const frame = page.frameLocator('#card-frame');
  await frame.locator('#fcc').fill(SECRETS.frameCard);
  await frame.locator('#fotp').fill(SECRETS.frameOtp);
  await page.press('#notes', 'Tab');
  await page.click('#save');

  await waitForFrames(recorder.worker, 4);
  await page.evaluate(() =>
    window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: 'verify saved banner', outcome: 'fail', label: 'banner missing' }, '*'),
  );
  await page.evaluate(() =>
    window.postMessage({ source: 'agent-flight-recorder', type: 'fail', reason: 'assertion_failed', label: 'settings were not saved' }, '*'),
  );

  const id = await waitForNewBundle(recorder.worker);
  const bundle = await exportBundle(recorder.worker, id);

  // Manifest: what failed, where, and what the zip holds.
  expect(bundle.manifest).toMatchObject({
    bundle_id: id,
    status: 'failure',
    failure_reason: 'assertion_failed',
    failure_label: 'settings were not saved',
    buffer_seconds: 15,
  });
  expect(bundle.manifest.url_at_failure).toContain('/secrets.html');
  for (const artifact of bundle.manifest.artifacts) expect(bundle.files.get(artifact.name)?.byteLength).toBe(artifact.size_bytes);

  // Frames: all there, JPEGs, in time order, named in order.
  const frameNames = [...bundle.files.keys()].filter((n) => n.startsWith('frames/')).sort();
  expect(frameNames.length).toBe(bundle.manifest.frame_count);
  expect(frameNames.length).toBeGreaterThanOrEqual(4);
  expect(bundle.manifest.frames.map((f) => f.name)).toEqual(frameNames);
  const times = bundle.manifest.frames.map((f) => f.ts);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  for (const name of frameNames) expect([...bundle.files.get(name)!.subarray(0, 2)]).toEqual([0xff, 0xd8]);

  // The clip: real H.264 that plays for the frames' real durations.
  const clip = await ffprobe(bundle.files.get('failure.mp4')!);
  expect(clip.codec).toBe('h264');
  const expectedSeconds = bundle.manifest.frames.reduce((s, f) => s + f.duration_ms, 0) / 1000;
  expect(clip.durationSeconds).toBeGreaterThan(expectedSeconds - 0.3);
  expect(clip.durationSeconds).toBeLessThan(expectedSeconds + 0.3);
  expect(clip.frames).toBeGreaterThanOrEqual(frameNames.length);

  // Steps: the observer's actions and the agent's own step, on one timeline.
  const actions = bundle.steps.steps.map((s) => `${s.source}:${s.action}`);
  expect(actions).toEqual(expect.arrayContaining(['agent:verify saved banner', 'observer:click']));
  expect(actions.some((a) => a.startsWith('observer:type'))).toBe(true);
  expect(actions.some((a) => a === 'observer:press Tab')).toBe(true);
  const typedPassword = bundle.steps.steps.find((s) => typeof s.target === 'object' && s.target?.selector.includes('pw'));
  expect(typedPassword).toMatchObject({ value: null, value_redacted: true });

  // Snapshot: sensitive fields withheld and counted, shadow DOM and the iframe included.
  const snapshotText = JSON.stringify(bundle.snapshot);
  expect(bundle.snapshot.snapshot).not.toBeNull();
  expect(snapshotText).toContain('"shadow_root":true');
  expect(snapshotText).toContain('"frame":"same-origin"');
  expect(snapshotText).toContain('"value":"express"');
  const redacted = bundle.diagnostics.redaction;
  expect(redacted.fields.password).toBeGreaterThanOrEqual(3);
  expect(redacted.fields.credit_card).toBeGreaterThanOrEqual(2);
  expect(redacted.fields.one_time_code ?? 0).toBeGreaterThanOrEqual(1);

  // Not one planted secret in any byte of any file.
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test('an uncaught exception in the page produces a bundle carrying its message and stack', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`);
  await waitForFrames(recorder.worker, 2);
  await page.click('#throw');
  const id = await waitForNewBundle(recorder.worker);
  const bundle = await exportBundle(recorder.worker, id);
  expect(bundle.manifest.failure_reason).toBe('page_exception');
  expect(bundle.manifest.failure_message).toContain('checkout exploded: cart is undefined');
  expect(bundle.diagnostics.failure.stack).toContain('renderOrderSummary');
  expect(bundle.diagnostics.failure.origin).toBe('debugger');
  expect(bundle.steps.steps.some((s) => s.kind === 'signal' && s.action === 'failure: page_exception')).toBe(true);
});

test('an unhandled promise rejection is a page exception too', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/errors.html`);
  await waitForFrames(recorder.worker, 1);
  await page.click('#reject');
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('page_exception');
  expect(bundle.manifest.failure_message).toContain('payment promise rejected: gateway timeout');
});

test('a main-frame document answered with HTTP 500 produces an http_5xx bundle', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/checkout.html`);
  await page.fill('#email', SECRETS.email);
  await page.fill('#card-number', SECRETS.card);
  await waitForFrames(recorder.worker, 2);
  await page.click('#place-order');
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
  expect(bundle.manifest.failure_reason).toBe('http_5xx');
  expect(bundle.diagnostics.failure.http_status).toBe(500);
  expect(bundle.manifest.url_at_failure).toContain('/checkout/submit');
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test('afr.fail from the automation side returns the bundle id, and the bundle can be listed, exported and deleted', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/index.html`);
  await page.click('[data-testid="add-shoes"]');
  await waitForFrames(recorder.worker, 2);
  await afr(recorder.worker, 'step', { action: 'open product list', outcome: 'ok' });
  const id = await afr(recorder.worker, 'fail', { reason: 'agent_failure', label: 'could not find the jacket' });
  const [listed] = await afr(recorder.worker, 'listBundles');
  expect(listed).toMatchObject({ id, reason: 'agent_failure', label: 'could not find the jacket' });
  expect(listed!.url).toContain('/index.html');
  const bundle = await exportBundle(recorder.worker, id);
  expect(bundle.steps.steps.map((s) => s.action)).toContain('open product list');
  expect(bundle.zip.byteLength).toBe(listed!.sizeBytes);
  // autoDownload (on by default) saved the same zip through chrome.downloads.
  expect(listed!.downloadId).not.toBeNull();
  await expect
    .poll(() => recorder.worker.evaluate((downloadId) => chrome.downloads.search({ id: downloadId }).then(([d]) => d && { state: d.state, bytes: d.fileSize, mime: d.mime }), listed!.downloadId!))
    .toEqual({ state: 'complete', bytes: listed!.sizeBytes, mime: 'application/zip' });
  expect(await afr(recorder.worker, 'deleteBundle', id)).toBe(true);
  expect(await afr(recorder.worker, 'listBundles')).toEqual([]);
});
