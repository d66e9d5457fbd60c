import type { Page } from 'playwright-core';
import type { Status } from '../schemas/api';
import { afr } from './support/afr';
import { exportBundle, findSecrets } from './support/bundle';
import { expect, test } from './support/fixtures';
import { secretVariants } from './support/secrets';

// The recording scope with the real extension, one browser for the whole file: outside the scope a
// tab has no frames, steps, debugger session or bundle; inside it, it records as ever.

/** The status entry of the visible tab showing `page`, once the capture loop has listed it. */
async function tabOf(worker: Parameters<typeof afr>[0], page: Page): Promise<Status['tabs'][number]> {
  await page.bringToFront();
  let found: Status['tabs'][number] | undefined;
  await expect
    .poll(async () => {
      found = (await afr(worker, 'status')).tabs.find((t) => t.url !== null && page.url().startsWith(t.url.split('?')[0]!));
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

test('scope agent records only the tab of the run, scope chosen only the allow-listed origin, and other_tabs never lists a tab outside the scope', async ({ recorder, site }) => {
  const { worker, context } = recorder;
  const status = () => afr(worker, 'status');

  await test.step('scope agent: a tab without a run has no frames, steps or debugger', async () => {
    await afr(worker, 'configure', { scope: 'agent' });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/index.html`);
    await page.click('[data-testid="add-shoes"]');
    await page.click('[data-testid="add-jacket"]');
    const tab = await tabOf(worker, page);
    // Two seconds is four captureVisibleTab turns and any number of screencast frames: none came.
    await page.waitForTimeout(2_000);
    const before = await status();
    expect(before.scope).toMatchObject({ mode: 'agent', recordedTabs: [], agentTabs: [] });
    expect(before.tabs.find((t) => t.tabId === tab.tabId)).toMatchObject({ recorded: false, debugger: false });
    expect(before.frames).toBe(0);
    expect(before.steps).toBe(0);
    await expect(afr(worker, 'fail', { tabId: tab.tabId, reason: 'probe' })).rejects.toThrow(/not bundled/);
    expect(await afr(worker, 'listBundles')).toEqual([]);

    // The agent's run brings the tab in: debugger, frames and steps, and a bundle of it.
    await afr(worker, 'runStart', { tabId: tab.tabId, agent: 'scope-e2e' });
    await expect.poll(async () => (await status()).tabs.find((t) => t.tabId === tab.tabId)).toMatchObject({ recorded: true, debugger: true });
    await page.click('[data-testid="add-shoes"]');
    await expect.poll(async () => (await status()).frames).toBeGreaterThan(0);
    expect((await status()).steps).toBeGreaterThan(0);
    const bundle = await exportBundle(worker, await afr(worker, 'fail', { tabId: tab.tabId, reason: 'probe' }));
    expect(bundle.manifest.frame_count).toBeGreaterThanOrEqual(1);
    expect(bundle.steps.steps.some((s) => s.action.includes('click'))).toBe(true);
    // Off by default: no other tabs in diagnostics.json.
    expect(bundle.diagnostics).not.toHaveProperty('other_tabs');
    expect(findSecrets(bundle, secretVariants())).toEqual([]);

    // The run ends: the tab leaves the scope and its debugger session closes.
    await afr(worker, 'runEnd', { outcome: 'failed' });
    await expect.poll(async () => (await status()).tabs.find((t) => t.tabId === tab.tabId)).toMatchObject({ recorded: false, debugger: false });
  });

  await test.step('scope chosen with an allow-list: only the listed origin records; other_tabs lists in-scope tabs only', async () => {
    await afr(worker, 'configure', { scope: 'chosen', scopeOrigins: [site.origin], diagnosticsOtherTabs: true, failureCooldownMs: 0 });
    // The same server under another origin (localhost, not 127.0.0.1): outside the allow-list.
    const otherOrigin = site.origin.replace('127.0.0.1', 'localhost');
    const outside = await context.newPage();
    await outside.goto(`${otherOrigin}/checkout.html`);
    const outsideTab = await tabOf(worker, outside);
    const listed = await context.newPage();
    await listed.goto(`${site.origin}/checkout.html`);
    const listedTab = await tabOf(worker, listed);
    const failing = context.pages()[0]!;
    const failingTab = await tabOf(worker, failing);

    await outside.bringToFront();
    await outside.fill('#full-name', 'Outside Person');
    await outside.click('h1');
    await listed.bringToFront();
    await listed.fill('#full-name', 'Listed Person');
    await listed.click('h1');
    await failing.bringToFront();
    await failing.click('[data-testid="add-jacket"]');
    await expect.poll(async () => (await status()).tabs.find((t) => t.tabId === failingTab.tabId)).toMatchObject({ recorded: true, debugger: true });

    const now = await status();
    expect(now.scope.recordedTabs).toEqual(expect.arrayContaining([failingTab.tabId, listedTab.tabId]));
    expect(now.scope.recordedTabs).not.toContain(outsideTab.tabId);
    await outside.bringToFront();
    await expect.poll(async () => (await status()).tabs.find((t) => t.tabId === outsideTab.tabId)).toMatchObject({ recorded: false, debugger: false });
    await expect(afr(worker, 'fail', { tabId: outsideTab.tabId, reason: 'probe' })).rejects.toThrow(/not bundled/);

    const bundle = await exportBundle(worker, await afr(worker, 'fail', { tabId: failingTab.tabId, reason: 'probe' }));
    const others = bundle.diagnostics!.other_tabs!;
    expect(others.map((t) => t.tab_id)).toContain(listedTab.tabId);
    expect(others.map((t) => t.tab_id)).not.toContain(outsideTab.tabId);
    expect(JSON.stringify(bundle.diagnostics)).not.toContain('localhost');
    expect(JSON.stringify(bundle.steps)).not.toContain('Outside Person');
    expect(findSecrets(bundle, secretVariants())).toEqual([]);
  });
});
