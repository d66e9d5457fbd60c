import type { Page } from 'playwright-core';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames } from './support/afr';
import type { RecorderBrowser } from './support/launch';
import { openPopup } from './support/popup';
import { ringFigures } from '../src/ui/popup-page';
import { describeLibrary } from '../src/ui/library-page';

// The operator pages as a person uses them: popup, bundle library and settings, in real Chromium.

async function openPage(recorder: RecorderBrowser, file: 'options.html' | 'library.html'): Promise<Page> {
  const page = await recorder.context.newPage();
  await page.goto(`chrome-extension://${recorder.extensionId}/${file}`);
  return page;
}

/** `YYYY-MM-DD` of a local day, as `<input type="date">` takes it. */
function localDate(offsetDays = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

test('popup: the ring figures are those of status(), pause and resume, Save bundle now', async ({ recorder, site }, testInfo) => {
  const { worker, context } = recorder;
  const shop = context.pages()[0] ?? (await context.newPage());
  await shop.goto(`${site.origin}/index.html`);
  await waitForFrames(worker, 3);

  const popup = await openPopup(recorder);
  const errors: string[] = [];
  popup.on('pageerror', (error) => errors.push(String(error)));
  await expect(popup.getByTestId('state')).toHaveText('Recording');
  await expect(popup.getByTestId('tabs')).toContainText(`${site.origin}/index.html`);
  await expect(popup.getByTestId('tabs')).toContainText('debugger');
  await popup.screenshot({ path: testInfo.outputPath('popup-recording.png') });

  // Paused, the ring stops changing: the popup's figures must be exactly status()'s.
  await popup.getByTestId('pause-toggle').click();
  await expect(popup.getByTestId('state')).toHaveText('Paused');
  await expect(popup.getByTestId('pause-toggle')).toHaveText('Resume');
  const status = await afr(worker, 'status');
  expect(status.paused).toBe(true);
  const settings = await afr(worker, 'getSettings');
  const figures = ringFigures(status, settings);
  await expect(popup.getByTestId('ring-frames')).toHaveText(figures.frames);
  await expect(popup.getByTestId('ring-bytes')).toHaveText(figures.bytes);
  await expect(popup.getByTestId('capture-level')).toHaveText(status.captureLevel);
  await expect(popup.getByTestId('persist-mode')).toHaveText(status.persistMode);
  await expect(popup.getByTestId('capture')).toContainText(`visibleTab \u00B7 `);
  expect(status.frames).toBeGreaterThanOrEqual(3);
  // The oldest frame keeps ageing while paused: the popup's seconds are status()'s within its refresh period.
  const held = /^(\d+\.\d) s of (\d+) s$/.exec((await popup.getByTestId('ring-seconds').textContent()) ?? '');
  expect(held, 'ring-seconds reads "<seconds> s of <bufferSeconds> s"').not.toBeNull();
  expect(Number(held![2])).toBe(settings.bufferSeconds);
  const oldest = Math.min((await afr(worker, 'status')).oldestFrameAgeMs!, settings.bufferSeconds * 1000);
  expect(Math.abs(Number(held![1]) * 1000 - oldest)).toBeLessThan(2_500);
  await popup.screenshot({ path: testInfo.outputPath('popup-paused.png') });

  await popup.getByTestId('pause-toggle').click();
  await expect(popup.getByTestId('state')).toHaveText('Recording');
  expect((await afr(worker, 'status')).paused).toBe(false);

  // Save bundle now: a manual bundle of the visible tab, listed by the API and in the popup.
  await popup.getByTestId('save-bundle').click();
  await expect(popup.getByTestId('action-message')).toHaveText(/^Saved afr-\S+\. Open in viewer$/, { timeout: 60_000 });
  const id = (await popup.getByTestId('action-message').getAttribute('data-bundle-id'))!;
  const listed = (await afr(worker, 'listBundles')).find((b) => b.id === id);
  expect(listed).toMatchObject({ id, reason: 'manual', url: `${site.origin}/index.html` });
  const item = popup.locator(`[data-testid="recent-bundles"] > li[data-bundle-id="${id}"]`);
  await expect(item).toContainText('manual');
  await expect(item.getByTestId('open-viewer')).toHaveAttribute('href', `chrome-extension://${recorder.extensionId}/viewer.html?id=${id}`);
  await expect(popup.getByTestId('library-link')).toHaveAttribute('href', `chrome-extension://${recorder.extensionId}/library.html`);
  await popup.screenshot({ path: testInfo.outputPath('popup-saved.png') });
  expect(errors).toEqual([]);
});

test('library: filter by reason, URL and date; delete after confirming', async ({ recorder, site }, testInfo) => {
  const { worker, context } = recorder;
  await afr(worker, 'configure', { encodeClip: false }); // faster bundles; the clip is not what this test is about
  const shop = context.pages()[0] ?? (await context.newPage());
  await shop.goto(`${site.origin}/index.html`);
  await waitForFrames(worker, 2);
  const failed = await afr(worker, 'fail', { reason: 'assertion_failed', label: 'cart is empty' });
  await shop.goto(`${site.origin}/checkout.html`);
  await waitForFrames(worker, 2);
  const agent = await afr(worker, 'fail', { reason: 'agent_failure', label: 'login loop' });

  const library = await openPage(recorder, 'library.html');
  const rows = library.locator('[data-testid="bundles"] tbody tr');
  await expect(rows).toHaveCount(2);
  const all = await afr(worker, 'listBundles');
  await expect(library.getByTestId('library-summary')).toHaveText(describeLibrary(all, all));
  await expect(rows.nth(0)).toHaveAttribute('data-bundle-id', agent); // newest first
  await expect(library.getByTestId('library-limits')).toContainText('at most 20 bundles');
  await library.screenshot({ path: testInfo.outputPath('library.png'), fullPage: true });

  await library.getByTestId('filter-reason').selectOption('assertion_failed');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-bundle-id', failed);
  await expect(library.locator(`tr[data-bundle-id="${agent}"]`)).toHaveCount(0);
  await expect(library.getByTestId('library-summary')).toHaveText(describeLibrary(all, all.filter((b) => b.id === failed)));
  await library.screenshot({ path: testInfo.outputPath('library-filtered.png'), fullPage: true });

  await library.getByTestId('filter-clear').click();
  await library.getByTestId('filter-url').fill('checkout');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-bundle-id', agent);
  await library.getByTestId('filter-url').fill('');
  await library.getByTestId('filter-to').fill(localDate(-1));
  await expect(rows).toHaveCount(0);
  await expect(library.getByTestId('library-empty')).toHaveText('No bundle matches the filter.');
  await library.getByTestId('filter-to').fill('');
  await library.getByTestId('filter-from').fill(localDate(0));
  await expect(rows).toHaveCount(2);

  // Download saves the zip again through chrome.downloads: a new download id.
  const downloadedBefore = all.find((b) => b.id === agent)!.downloadId;
  await library.locator(`tr[data-bundle-id="${agent}"]`).getByTestId('download').click();
  await expect(library.getByTestId('library-message')).toHaveText(`Downloading agent-flight-recorder/${agent}.zip`);
  await expect.poll(async () => (await afr(worker, 'listBundles')).find((b) => b.id === agent)!.downloadId).not.toBe(downloadedBefore);

  // Dismissing the confirmation keeps the bundle; accepting deletes it.
  const row = library.locator(`tr[data-bundle-id="${failed}"]`);
  await expect(row.getByTestId('open-viewer')).toHaveAttribute('href', `chrome-extension://${recorder.extensionId}/viewer.html?id=${failed}`);
  library.once('dialog', (dialog) => void dialog.dismiss());
  await row.getByTestId('delete').click();
  await expect(row).toHaveCount(1);
  library.once('dialog', (dialog) => void dialog.accept());
  await row.getByTestId('delete').click();
  await expect(row).toHaveCount(0);
  await expect(library.getByTestId('library-message')).toHaveText(`Deleted ${failed}.`);
  expect((await afr(worker, 'listBundles')).map((b) => b.id)).toEqual([agent]);
  await expect(rows).toHaveCount(1);
});

test('settings: a bad value is explained and not saved; a good one is saved', async ({ recorder }, testInfo) => {
  const { worker } = recorder;
  const options = await openPage(recorder, 'options.html');
  const buffer = options.locator('[name="bufferSeconds"]');
  await expect(buffer).toHaveValue('15');
  await options.screenshot({ path: testInfo.outputPath('settings.png'), fullPage: true });

  await buffer.fill('0');
  await expect(options.getByTestId('error-bufferSeconds')).toHaveText('Too small: expected number to be >=1');
  await options.getByTestId('save').click();
  await expect(options.getByTestId('save-message')).toHaveText('Nothing saved: fix the marked fields.');
  expect((await afr(worker, 'getSettings')).bufferSeconds).toBe(15);
  await options.locator('[data-field="bufferSeconds"]').screenshot({ path: testInfo.outputPath('settings-invalid.png') });

  await buffer.fill('20');
  await expect(options.getByTestId('error-bufferSeconds')).toBeEmpty();
  await options.locator('[name="signals.http_4xx.action"]').selectOption('trigger');
  await options.locator('[name="signals.http_4xx.statuses"]').fill('401, 403');
  await options.getByTestId('save').click();
  await expect(options.getByTestId('save-message')).toHaveText('Saved: bufferSeconds, signals.http_4xx.action, signals.http_4xx.statuses.');
  const saved = await afr(worker, 'getSettings');
  expect(saved.bufferSeconds).toBe(20);
  expect(saved.signals.http_4xx).toMatchObject({ action: 'trigger', statuses: [401, 403] });
  expect(saved.signals.http_5xx.action).toBe('trigger'); // untouched rules stay as they were

  // A reload shows what is stored.
  await options.reload();
  await expect(options.locator('[name="bufferSeconds"]')).toHaveValue('20');
  await expect(options.locator('[name="signals.http_4xx.statuses"]')).toHaveValue('401, 403');
});

test('settings: "Test on the current tab" lists what the rules being edited would mask', async ({ recorder, site }, testInfo) => {
  const { worker, context } = recorder;
  const shop = context.pages()[0] ?? (await context.newPage());
  await shop.goto(`${site.origin}/secrets.html`);
  const options = await openPage(recorder, 'options.html');
  await expect(options.getByTestId('preview-tab')).toContainText(`${site.origin}/secrets.html`);

  await options.locator('[name="redaction.textPatterns"]').fill('(unclosed');
  await expect(options.getByTestId('error-redaction.textPatterns')).toHaveText('item 1 ((unclosed): not a valid regular expression');
  await options.getByTestId('preview-run').click();
  await expect(options.getByTestId('preview-result')).toHaveText('Fix the marked rules first.');

  await options.locator('[name="redaction.textPatterns"]').fill('Account owner');
  await options.locator('[name="redaction.selectors"]').fill('#shipping');
  await options.getByTestId('preview-run').click();
  await expect(options.getByTestId('preview-summary')).toHaveText(/^\d+ elements would be masked\.$/);
  const matches = options.getByTestId('preview-matches');
  await expect(matches.locator('tr', { hasText: 'built_in:password' }).first()).toBeVisible();
  await expect(matches.locator('tr', { hasText: '#shipping' })).toContainText('selector');
  await expect(matches.locator('tr', { hasText: 'text_pattern' })).toHaveCount(1);
  await options.locator('.preview').screenshot({ path: testInfo.outputPath('settings-preview.png') });
  // Testing does not save the rules.
  expect((await afr(worker, 'getSettings')).redaction).toEqual({ selectors: [], fieldNamePatterns: [], textPatterns: [] });
});
