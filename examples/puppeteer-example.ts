// In an agent harness: import { connectRecorderPuppeteer } from 'agent-flight-recorder/client';
import { connectRecorderPuppeteer, type PuppeteerBrowserLike } from '../src/client/index';

// Puppeteer is not a dependency: the parts of its `Browser` and `Page` the example uses, so the
// example type-checks against the client's structural types. It is compiled by `tsc`, never run.
interface PageLike {
  goto(url: string): Promise<unknown>;
  type(selector: string, text: string): Promise<void>;
  click(selector: string): Promise<void>;
  $(selector: string): Promise<unknown>;
}
type BrowserLike = PuppeteerBrowserLike & { newPage(): Promise<PageLike> };

/** The Puppeteer example of docs/drivers/puppeteer.md: a login that loops; the agent gives up and declares a failure. */
export async function runPuppeteerExample(browser: BrowserLike, { appUrl, outDir }: { appUrl: string; outDir: string }): Promise<string | null> {
  // #region docs
  const rec = await connectRecorderPuppeteer(browser);
  await rec.runStart({ agent: 'login-bot', task: 'sign in and open the dashboard' });

  const page = await browser.newPage();
  let signedIn = false;
  for (let attempt = 1; attempt <= 3 && !signedIn; attempt++) {
    await page.goto(`${appUrl}/login`);
    await page.type('#user', 'demo');
    await page.click('#sign-in');
    signedIn = (await page.$('#user')) === null;
    await rec.step({ action: `sign in (attempt ${attempt})`, target: '#sign-in', outcome: signedIn ? 'ok' : 'fail' });
  }
  // `fail` resolves once the bundle is stored.
  const bundleId = signedIn ? null : await rec.fail({ reason: 'agent_failure', label: 'login loop: the form came back 3 times' });
  if (bundleId) await rec.saveBundle(bundleId, outDir); // <outDir>/<bundleId>.zip
  await rec.runEnd({ outcome: signedIn ? 'passed' : 'failed' });
  // #endregion
  return bundleId;
}
