import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';
import { restartedWorker, stopWorker } from './support/worker-restart';
import { StepSnapshotFileSchema, type StepSnapshotFile, type TimelineNode } from '../schemas/timeline';
import type { Step } from '../schemas/steps';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every `snapshots/*.json` of the bundle, parsed against its schema. */
function stepSnapshots(bundle: OpenedBundle): Map<string, StepSnapshotFile> {
  const out = new Map<string, StepSnapshotFile>();
  for (const [name, bytes] of bundle.files) {
    if (name.startsWith('snapshots/')) out.set(name, StepSnapshotFileSchema.parse(JSON.parse(bytes.toString('utf8'))));
  }
  return out;
}

function nodes(root: TimelineNode): TimelineNode[] {
  const out: TimelineNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...(n.children ?? []));
  }
  return out;
}

const byHtmlId = (root: TimelineNode, id: string) => nodes(root).find((n) => n.attributes?.id === id);
const targetOf = (step: Step) => (typeof step.target === 'object' ? step.target : null);

test('the checkout failure bundle shows the page at every step, what each click hit and changed, and no secret', async ({ recorder, site }) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  const step = (action: string) => page.evaluate((a) => window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: a, outcome: 'ok' }, '*'), action);

  await page.goto(site.origin);
  await waitForFrames(recorder.worker, 1);
  await step('open the shop');
  for (const item of ['add-shoes', 'add-bottle']) {
    await page.click(`[data-testid="${item}"]`);
    await pause(300);
  }
  await step('add two items to the cart');
  // The worker stops (as Chrome stops an idle one): the pages recorded so far are read by the next.
  await stopWorker(recorder, page);
  const worker = await restartedWorker(recorder);
  await page.click('#cart-link');
  await page.waitForSelector('#checkout');
  await page.fill('#full-name', 'Jane Doe');
  await page.fill('#email', SECRETS.email);
  await page.fill('#phone', SECRETS.phone);
  await page.fill('#account-password', SECRETS.password);
  await page.fill('#card-number', SECRETS.card);
  await page.fill('#card-cvc', SECRETS.cvv);
  await page.fill('#notes', `Leave it at the door, call ${SECRETS.notesPhone}`);
  await step('fill in the checkout form');
  await pause(600);
  await page.click('#place-order');
  const bundle = await exportBundle(worker, await waitForNewBundle(worker));
  expect(bundle.manifest.failure_reason).toBe('http_5xx');
  const pages = stepSnapshots(bundle);
  expect(pages.size).toBeGreaterThan(1);
  for (const name of pages.keys()) expect(bundle.manifest.artifacts.map((a) => a.name)).toContain(name);

  // The click on "Place order": its page is the filled form, sensitive fields withheld.
  const steps = bundle.steps.steps;
  const placeOrder = steps.find((s) => s.kind === 'click' && targetOf(s)?.selector.includes('place-order'));
  expect(placeOrder?.snapshot).toBeDefined();
  const before = pages.get(placeOrder!.snapshot!)!.snapshot;
  expect(before.url).toContain('/checkout.html');
  expect(byHtmlId(before.root, 'checkout')?.tag).toBe('form');
  expect(byHtmlId(before.root, 'full-name')).toMatchObject({ value: 'Jane Doe' });
  for (const id of ['email', 'account-password', 'card-number', 'card-cvc']) {
    expect(byHtmlId(before.root, id)).toMatchObject({ value: null, value_redacted: true });
  }
  // snapshot.json is the error page; its `previous` is the form as it was left.
  expect(bundle.snapshot.snapshot?.url).toContain('/checkout/submit');
  expect(bundle.snapshot.previous).toBe(placeOrder!.snapshot);

  // The click's target is the button clicked, with its box and the pointer's point inside it.
  const target = targetOf(placeOrder!)!;
  const hit = nodes(before.root).find((n) => n.id === target.node);
  expect(hit).toMatchObject({ tag: 'button', attributes: expect.objectContaining({ id: 'place-order' }) });
  expect(target.rect!.width).toBeGreaterThan(0);
  expect(target.point!.x).toBeGreaterThanOrEqual(target.rect!.x);
  expect(target.point!.x).toBeLessThanOrEqual(target.rect!.x + target.rect!.width);
  expect(target.point!.y).toBeGreaterThanOrEqual(target.rect!.y);
  expect(target.point!.y).toBeLessThanOrEqual(target.rect!.y + target.rect!.height);
  // What it led to: the form gone, the error page in its place.
  expect(placeOrder!.changes?.diff.new_document).toBe(true);
  expect(placeOrder!.changes?.description).toContain('disappeared');

  // "Add to cart" (before the restart): the cart count changed from 0 to 1.
  const addShoes = steps.find((s) => s.kind === 'click' && targetOf(s)?.selector.includes('add-shoes'));
  expect(addShoes?.changes?.diff.text).toEqual(expect.arrayContaining([expect.objectContaining({ from: '0', to: '1' })]));
  expect(addShoes?.changes?.description).toContain("from '0' to '1'");
  // The agent's own steps reference their page too.
  expect(steps.find((s) => s.source === 'agent' && s.action === 'fill in the checkout form')?.snapshot).toBe(placeOrder!.snapshot);

  // For models: the outline shows the error page and the form at the last action, the button marked;
  // summary.md tells what the last steps changed.
  const outline = bundle.files.get('outline.md')!.toString('utf8');
  expect(outline).toContain('## At the failure');
  // The last action is the form's submit (after the click on its button): the form is the target.
  expect(outline).toMatch(/form #checkout {2}◀ target/);
  expect(outline).toContain('button "Place order"');
  expect(outline).toContain('value withheld');
  expect(outline.length).toBeLessThanOrEqual(16_000);
  expect(bundle.files.get('summary.md')!.toString('utf8')).toContain('## What changed');

  // Not one planted secret in any byte of any file (snapshots/ and outline.md included).
  expect(findSecrets(bundle, secretVariants())).toEqual([]);

  // A page of 10,000 long elements, past the timeline's page budget: it keeps working, and its pages say truncated.
  const loading = Date.now();
  await page.goto(`${site.origin}/big-page.html`);
  // Its first snapshot is taken in slices while the page runs: the worker has it once it started.
  await expect.poll(async () => (await afr(worker, 'status')).timeline?.latestStart ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(loading);
  await page.click('#count');
  await expect(page.locator('#clicks')).toHaveText('1');
  await afr(worker, 'step', { action: 'count once', outcome: 'ok' });
  const bigId = await afr(worker, 'fail', { reason: 'agent_failure', label: 'big page' });
  const big = await exportBundle(worker, bigId!);
  const bigPages = stepSnapshots(big);
  const count = big.steps.steps.find((s) => s.kind === 'click' && targetOf(s)?.selector.includes('count'));
  const counted = bigPages.get(count!.snapshot!)!.snapshot;
  expect(counted.truncated).toBe(true);
  expect(counted.node_count).toBeGreaterThan(1000);
  expect(nodes(counted.root).find((n) => n.id === targetOf(count!)!.node)?.attributes?.id).toBe('count');
  await page.click('#count');
  await expect(page.locator('#clicks')).toHaveText('2');

  // A page of ~50,000 elements: clicks while its first snapshot is still taken in slices reference the
  // page too (their checkpoint waits for the snapshot, their target is recorded ahead of it), and its base
  // (megabytes) reaches the worker in parts.
  const bigStart = Date.now();
  await page.goto(`${site.origin}/big-start.html`, { waitUntil: 'domcontentloaded' });
  const tap = (await page.locator('#tap').boundingBox())!;
  const latestStart = async () => (await afr(worker, 'status')).timeline?.latestStart ?? 0;
  for (let i = 0; i < 60 && (await latestStart()) < bigStart; i++) await page.mouse.click(tap.x + 5, tap.y + 5);
  await expect.poll(latestStart, { timeout: 30_000 }).toBeGreaterThanOrEqual(bigStart);
  // When the first snapshot was whole (the base's time).
  const whole = await latestStart();
  const startedId = await afr(worker, 'fail', { reason: 'agent_failure', label: 'big start' });
  const started = await exportBundle(worker, startedId!);
  const startedPages = stepSnapshots(started);
  const taps = started.steps.steps.filter((s) => s.kind === 'click' && targetOf(s)?.selector.includes('tap'));
  const early = taps.filter((s) => s.ts < whole && s.snapshot);
  expect(early.length).toBeGreaterThan(0);
  for (const s of early) {
    const seen = startedPages.get(s.snapshot!)!.snapshot;
    expect(seen.url).toContain('/big-start.html');
    expect(seen.asked_at).toBeLessThanOrEqual(seen.at);
    expect(seen.node_count).toBeGreaterThan(40_000);
    expect(nodes(seen.root).find((n) => n.id === targetOf(s)!.node)?.attributes?.id).toBe('tap');
  }
});
