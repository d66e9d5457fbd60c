import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PuppeteerRunnerExtension, createRunner, parse } from '@puppeteer/replay';
import puppeteer from 'puppeteer-core';
import ts from 'typescript';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle, findSecrets, openBundle } from './support/bundle';
import { EXTENSION_DIR, ROOT_DIR, chromiumPath } from './support/launch';
import { startReproShop } from './support/repro-shop';

/*
 * `afr repro` on a real failure: an agent fills the shop's order (a name, an email the recorder withholds,
 * quantity 7) and checks out; the shop answers 500 for quantities over 5. The bundle becomes scripts in the
 * three languages, and `afr repro --run` replays it live (reproduced), against the fixed shop (not
 * reproduced) and offline with the shop down (reproduced from network.har).
 */

const EMAIL = 'ada.lovelace@example.org';
const run = promisify(execFile);
const afrCli = (...args: string[]) =>
  run(process.execPath, [path.join(ROOT_DIR, 'bin/afr.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, CHROME_PATH: chromiumPath(), AFR_EXTENSION_DIR: EXTENSION_DIR }, timeout: 120_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

/** A plain environment: a runner started with this test runner's variables (its workers', NODE_OPTIONS) finds no tests. */
const outsideThisTest = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

test('afr repro: the checkout 500 as scripts, reproduced live, not with the bug fixed, reproduced offline with the shop down', async ({ recorder, tempDir }) => {
  test.setTimeout(240_000);
  const shop = await startReproShop();
  const dir = tempDir();
  try {
    const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
    await page.goto(`${shop.origin}/shop.html`);
    await waitForFrames(recorder.worker, 1);
    await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.some((t) => t.debugger), { timeout: 15_000 }).toBe(true);
    // The agent opens the shop again now that the recorder reads the tab's network: the page is in network.har.
    await page.goto(`${shop.origin}/shop.html`);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Quantity').fill('7');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page.locator('#status')).toHaveText('Checkout failed: stock_service_overflow');
    const bundle = await exportBundle(recorder.worker, await waitForNewBundle(recorder.worker));
    expect(bundle.manifest.failure_reason).toBe('http_5xx');
    expect(findSecrets(bundle, [EMAIL])).toEqual([]);
    expect(bundle.files.get('summary.md')!.toString('utf8')).toContain(`afr repro ${bundle.manifest.bundle_id}.zip --run`);
    const zip = path.join(dir, 'checkout.zip');
    writeFileSync(zip, bundle.zip);

    // The scripts: each parses, none holds the withheld email, the email comes from AFR_EMAIL.
    const figures: string[] = [];
    for (const [lang, file] of [['ts', 'checkout.spec.ts'], ['python', 'checkout.py'], ['devtools', 'checkout.json']] as const) {
      const started = Date.now();
      const wrote = await afrCli('repro', zip, '--out', path.join(dir, file), '--lang', lang, ...(lang === 'devtools' ? [] : ['--offline']));
      figures.push(`${lang} ${Date.now() - started} ms (${wrote.stdout.trim()})`);
      expect(wrote.code, wrote.stderr).toBe(0);
      expect(wrote.stdout).toMatch(/5 steps, 5 found by role, label, text or test id/);
      const text = readFileSync(path.join(dir, file), 'utf8');
      expect(text).not.toContain(EMAIL);
      expect(text).not.toContain('ada.lovelace');
    }
    const tsText = readFileSync(path.join(dir, 'checkout.spec.ts'), 'utf8');
    const parsed = ts.createSourceFile('checkout.spec.ts', tsText, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) as unknown as { parseDiagnostics: unknown[] };
    expect(parsed.parseDiagnostics).toEqual([]);
    expect(tsText).toContain('page.getByRole("button", { name: "Checkout", exact: true }).click()');
    expect(tsText).toContain('process.env["AFR_EMAIL"] ?? "person@example.com"');
    expect(tsText).toContain('test.use({ viewport: { width: 1280, height: 720 } });');
    execFileSync('python3', ['-m', 'py_compile', path.join(dir, 'checkout.py')]);
    const flow = JSON.parse(readFileSync(path.join(dir, 'checkout.json'), 'utf8')) as { steps: { type: string; selectors?: string[][] }[] };
    expect(flow.steps.map((s) => s.type)).toEqual(['setViewport', 'navigate', 'navigate', 'change', 'change', 'change', 'click', 'click']);
    expect(flow.steps.at(-1)!.selectors).toEqual([['aria/Checkout[role="button"]'], ['#checkout']]);
    // Chrome's Recorder format as @puppeteer/replay reads it, and its runner replays it against the shop: the checkout of 7 is asked again.
    const checkoutsBefore = shop.checkouts.length;
    const replayBrowser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
    try {
      const replayPage = await replayBrowser.newPage();
      const runner = await createRunner(parse(flow), new PuppeteerRunnerExtension(replayBrowser, replayPage, { timeout: 15_000 }));
      expect(await runner.run()).toBe(true);
      await expect.poll(() => shop.checkouts.slice(checkoutsBefore)).toEqual([7]);
    } finally {
      await replayBrowser.close();
    }

    // Live: the same 500 after the same step, and the recorder's bundle of the replay.
    let started = Date.now();
    const live = await afrCli('repro', zip, '--run', '--json');
    figures.push(`live verdict ${Date.now() - started} ms`);
    expect(live.code, live.stderr).toBe(0);
    const liveVerdict = JSON.parse(live.stdout) as { verdict: string; step: number; line: string; bundle: string | null; located: string[] };
    expect(liveVerdict).toMatchObject({ verdict: 'reproduced', step: 7 });
    expect(liveVerdict.line).toBe('reproduced: POST /api/checkout answers 5xx (recorded: 500) after step 7');
    expect(liveVerdict.located).toEqual(['step 3: textbox "Name"', 'step 4: textbox "Email"', 'step 5: spinbutton "Quantity"', 'step 6: button "Add to cart"', 'step 7: button "Checkout"']);
    expect(liveVerdict.bundle && existsSync(liveVerdict.bundle)).toBe(true);
    const replayBundle = await openBundle(readFileSync(liveVerdict.bundle!));
    expect(replayBundle.manifest.failure_reason).toBe('http_5xx');
    expect(findSecrets(replayBundle, [EMAIL])).toEqual([]);

    // The bug fixed: every step runs and checkout answers 200.
    shop.buggy = false;
    const fixed = await afrCli('repro', zip, '--run');
    expect(fixed.code).toBe(1);
    expect(fixed.stdout).toBe('not reproduced: every step ran (to step 7) and the failure did not happen (POST /api/checkout answers 5xx (recorded: 500))\n');

    // Offline with the shop down: the page and the 500 come from network.har.
    await shop.close();
    started = Date.now();
    const offline = await afrCli('repro', zip, '--run', '--offline');
    figures.push(`offline verdict ${Date.now() - started} ms`);
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    expect(offline.stdout.split('\n')[0]).toBe('reproduced: POST /api/checkout answers 5xx (recorded: 500) after step 7');

    // The offline TypeScript script under `npx playwright test`, the shop still down: it fails with the recorded 500.
    // Written under the checkout (test-results/, ignored) so that it resolves @playwright/test as a project's test would.
    mkdirSync(path.join(ROOT_DIR, 'test-results'), { recursive: true });
    const project = mkdtempSync(path.join(ROOT_DIR, 'test-results', 'repro-script-'));
    try {
      copyFileSync(path.join(dir, 'checkout.spec.ts'), path.join(project, 'checkout.spec.ts'));
      writeFileSync(
        path.join(project, 'playwright.config.ts'),
        // Its own outputDir: by default it would be the checkout's test-results/ (beside package.json), which a run empties.
        `export default { testDir: '.', outputDir: 'out', reporter: 'line', use: { launchOptions: { executablePath: ${JSON.stringify(chromiumPath())}, args: ['--no-sandbox'] } } };\n`,
      );
      const script = await run(process.execPath, [path.join(ROOT_DIR, 'node_modules/@playwright/test/cli.js'), 'test', '-c', path.join(project, 'playwright.config.ts')], { cwd: project, encoding: 'utf8', timeout: 120_000, env: outsideThisTest() }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      expect(script.code, script.stdout).toBe(1);
      expect(script.stdout).toContain('the recorded failure: POST /api/checkout answers 5xx (recorded: 500)');
      expect(script.stdout).toMatch(/"POST http:\/\/127\.0\.0\.1:\d+\/api\/checkout 500"/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
    console.log(`afr repro figures: ${figures.join('; ')}`);
  } finally {
    await shop.close();
  }
});
