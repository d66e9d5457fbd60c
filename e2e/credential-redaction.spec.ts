import { test, expect, type Page } from '@playwright/test';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import { launchWithRecorder, type RecorderBrowser } from './support/launch';
import { startSiteServer, type SiteServer } from './support/site-server';

/** A deterministic run of letters and digits, mixed case, as random tokens are. */
const token = (n: number, seed: number) => {
  const chars = 'aB3dE5fG7hJ9kLmN2pQ4rS6tU8vW0xYzCq';
  let out = '';
  for (let i = 0; i < n; i++) out += chars[(i * seed + seed * 7 + 3) % chars.length];
  return out;
};
const jwt = (sub: string) =>
  `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub, iat: 1764000000 })).toString('base64url')}.${token(43, 11)}`;

/** One credential per channel, each in a format the built-in detectors know; none may reach a bundle. */
const PLANTED = {
  consoleBearer: `gho_${token(36, 1)}`,
  consolePassword: 'Tr0ub4dor-Zebra-4471',
  consoleAnthropic: `sk-ant-api03-${token(90, 2)}`,
  exceptionOpenAi: `sk-proj-${token(48, 3)}`,
  pageJwt: jwt('page-text-user-1'),
  pageAws: 'AKIAZ7XQ3EXAMPLE2K9T',
  pageGoogle: `AIza${token(35, 4)}`,
  pagePem: `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${token(40, 5)}`,
  urlJwt: jwt('url-path-user-2'),
  urlGithub: `ghp_${token(36, 6)}`,
  accessKeyField: 'wJalrXUtnFEMIxK7MDENGxbPxRfiCYzQ91xT',
  alertSlack: `xoxb-2048613920-4096127803-${token(24, 7)}`,
  afrStepStripe: `sk_live_${token(24, 8)}`,
  pageStepNpm: `npm_${token(36, 9)}`,
} as const;

const CUSTOM_IDS = ['ACCT-314159', 'ACCT-271828', 'ACCT-161803', 'ACCT-141421'] as const;

test.describe.configure({ mode: 'serial' });

let site: SiteServer;
let recorder: RecorderBrowser;
let page: Page;

// One browser for the file: the second test also checks that nothing of the first one's is left.
test.beforeAll(async () => {
  site = await startSiteServer();
  recorder = await launchWithRecorder();
  page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/credentials.html`);
  await waitForFrames(recorder.worker, 1);
  // Console errors and dialogs come through the debugger session.
  await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.some((t) => t.debugger), { timeout: 15_000 }).toBe(true);
});

test.afterAll(async () => {
  await recorder?.close();
  await site?.close();
});

/** Every file of the bundle as text, for the assertions that look for the masks. */
const textOf = (bundle: OpenedBundle, name: string) => bundle.files.get(name)?.toString('utf8') ?? '';

test('credentials in console errors, exceptions, page text, URLs, fields, dialogs and agent steps reach no bundle file', async () => {
  await page.evaluate((p) => {
    document.getElementById('jwt')!.textContent = p.pageJwt;
    document.getElementById('aws')!.textContent = p.pageAws;
    document.getElementById('google')!.textContent = p.pageGoogle;
    document.getElementById('pem')!.textContent = `-----BEGIN PRIVATE KEY-----\n${p.pagePem}\n-----END PRIVATE KEY-----`;
    history.pushState(null, '', `/s/${p.urlJwt}/credentials.html?q=${p.urlGithub}&page=2`);
  }, PLANTED);
  await page.fill('#ak', PLANTED.accessKeyField);
  await page.fill('#notes', 'rotate monthly');
  await page.click('#save');

  await page.evaluate((p) => {
    console.error(`GET /api/keys failed. Authorization: Bearer ${p.consoleBearer}`);
    console.error(`retry with password=${p.consolePassword}`);
    console.error(`upstream refused key ${p.consoleAnthropic}`);
  }, PLANTED);
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.evaluate((p) => alert(`Slack token ${p.alertSlack} was revoked`), PLANTED);
  await afr(recorder.worker, 'step', { action: 'configure payments', reasoning: `the key to use is ${PLANTED.afrStepStripe}` });
  await page.evaluate(
    (p) => window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: 'publish', reasoning: `publishing with ${p.pageStepNpm}` }, '*'),
    PLANTED,
  );
  await page.waitForTimeout(1_000);

  const known = (await afr(recorder.worker, 'listBundles')).map((b) => b.id);
  await page.evaluate((key) => {
    setTimeout(() => {
      throw new Error(`OpenAI key ${key} was refused`);
    });
  }, PLANTED.exceptionOpenAi);
  const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker, known));

  expect(bundle.manifest.failure_reason).toBe('page_exception');
  expect(findSecrets(bundle, Object.values(PLANTED))).toEqual([]);
  expect(JSON.stringify(await afr(recorder.worker, 'status'))).not.toMatch(new RegExp(Object.values(PLANTED).join('|')));

  // What the recorder kept instead: the masks, and the field withheld by its label.
  const diagnostics = textOf(bundle, 'diagnostics.json');
  expect(diagnostics).toContain('Authorization: [credential]');
  expect(diagnostics).toContain('password=[credential]');
  expect(bundle.manifest.url_at_failure).toContain('/s/[credential]/credentials.html?q=REDACTED&page=2');
  const typed = bundle.steps.steps.find((s) => s.kind === 'input' && JSON.stringify(s.target).includes('#ak'));
  expect(typed).toMatchObject({ value: null, value_redacted: true });
  const steps = textOf(bundle, 'steps.json');
  expect(steps).toContain('the key to use is [credential]');
  expect(steps).toContain('publishing with [credential]');
  expect(steps).toMatch(/Slack token \[credential\] was revoked/);
  expect(textOf(bundle, 'snapshot.json')).toContain('[credential]');
});

test('a custom text pattern set through afr.configure masks console errors, agent steps and page text', async () => {
  await afr(recorder.worker, 'configure', { redaction: { selectors: [], fieldNamePatterns: [], textPatterns: ['ACCT-\\d{6}'] } });
  // The content script reads the new rules from storage.
  await page.waitForTimeout(500);
  await page.evaluate((ids) => {
    console.error(`account lookup failed for ${ids[0]}`);
    window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: 'open account', reasoning: `the user means ${ids[2]}` }, '*');
    document.getElementById('token-text')!.textContent = `Billing account ${ids[3]}`;
  }, CUSTOM_IDS);
  await afr(recorder.worker, 'step', { action: 'open account', reasoning: `then ${CUSTOM_IDS[1]}` });
  await page.waitForTimeout(1_000);

  const bundle = await exportBundle(recorder.worker, await afr(recorder.worker, 'fail', { reason: 'custom_pattern_probe' }));
  expect(findSecrets(bundle, [...CUSTOM_IDS, ...Object.values(PLANTED)])).toEqual([]);
  const diagnostics = textOf(bundle, 'diagnostics.json');
  expect(diagnostics).toContain('account lookup failed for [redacted]');
  const steps = textOf(bundle, 'steps.json');
  expect(steps).toContain('then [redacted]');
  expect(steps).toContain('the user means [redacted]');
  expect(textOf(bundle, 'snapshot.json')).toContain('Billing account [redacted]');
});
