// In an agent harness: import type { RecorderClient } from 'agent-flight-recorder/client';
import type { RecorderClient } from '../src/client/index';

/** The part of Playwright's or Puppeteer's `Page` the example uses. */
interface PageLike {
  click(selector: string): Promise<unknown>;
}

/**
 * The example of keeping an automatic bundle (docs/drivers/where-bundles-go.md): the recorder bundles an HTTP 500 on its own,
 * the harness waits for that bundle and saves it out of the browser. e2e/bundle-keeping.spec.ts runs it.
 */
export async function keepAutomaticBundle(rec: RecorderClient, page: PageLike, outDir: string): Promise<{ bundleId: string; zipPath: string }> {
  // #region docs
  const since = Date.now(); // taken before the action that may fail
  await page.click('#place-order'); // the shop answers HTTP 500: the recorder bundles on its own
  const bundle = await rec.waitForBundle({ since, reason: 'http_5xx', timeoutMs: 30_000 });
  const zipPath = await rec.saveBundle(bundle.id, outDir); // <outDir>/<bundle id>.zip, kept when the browser closes
  // #endregion
  return { bundleId: bundle.id, zipPath };
}
