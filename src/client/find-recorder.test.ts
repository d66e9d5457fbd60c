import { describe, expect, it } from 'vitest';
import { findRecorder } from './find-recorder';
import { playwrightSource, puppeteerSource } from './sources';
import { fakeAfr, FakeBrowser, FakeContext, FakeTarget, FakeWorker, OTHER_ID, RECORDER_ID, recorderUrl } from '../../test/fakes/client';

/** A worker that takes the call and never answers (stuck, or another extension busy for good). */
class StuckWorker extends FakeWorker {
  override evaluate(): Promise<unknown> {
    this.evaluations++;
    return new Promise(() => undefined);
  }
}

const offscreenUrl = (id = RECORDER_ID) => `chrome-extension://${id}/offscreen.html`;

describe('findRecorder', () => {
  it("never evaluates in the extension's offscreen document, even listed first and answering to afr", async () => {
    const browser = new FakeBrowser();
    // Raw CDP and Puppeteer list the offscreen document (clip encoding) as a `background_page` target,
    // often before the worker: "the first chrome-extension:// target" is the wrong one.
    const offscreen = new FakeWorker(offscreenUrl(), fakeAfr());
    browser.addTarget(new FakeTarget('background_page', offscreenUrl(), offscreen));
    const afr = fakeAfr();
    browser.addTarget(new FakeTarget('service_worker', recorderUrl(), new FakeWorker(recorderUrl(), afr)));

    const found = await findRecorder(puppeteerSource(browser), { timeoutMs: 1_000 });

    expect(found.extensionId).toBe(RECORDER_ID);
    expect(offscreen.evaluations).toBe(0);
  });

  it.each([
    ['a service worker of the extension that is not background.js', `chrome-extension://${RECORDER_ID}/sw.js`],
    ['an extension page', `chrome-extension://${RECORDER_ID}/viewer.html`],
    ['a background.js further down a path', `chrome-extension://${RECORDER_ID}/lib/background.js`],
    ["a web page's own background.js", 'https://shop.test/background.js'],
  ])('ignores %s', async (_what, url) => {
    const context = new FakeContext();
    const decoy = context.addWorker(new FakeWorker(url, fakeAfr()));
    context.addWorker(new FakeWorker(recorderUrl(), fakeAfr()));
    const found = await findRecorder(playwrightSource(context), { timeoutMs: 1_000 });
    expect(found.extensionId).toBe(RECORDER_ID);
    expect(decoy.evaluations).toBe(0);
  });

  it("with several extensions running a background.js, takes the one exposing afr, whichever is listed first", async () => {
    const browser = new FakeBrowser();
    const other = new FakeWorker(recorderUrl(OTHER_ID), undefined);
    browser.addTarget(new FakeTarget('service_worker', recorderUrl(OTHER_ID), other));
    browser.addTarget(new FakeTarget('service_worker', recorderUrl(), new FakeWorker(recorderUrl(), fakeAfr())));

    const found = await findRecorder(puppeteerSource(browser), { timeoutMs: 1_000 });

    expect(found.extensionId).toBe(RECORDER_ID);
    expect(other.evaluations).toBe(1);
  });

  it("finds a recorder that starts while another extension's worker never answers", async () => {
    const context = new FakeContext();
    const stuck = context.addWorker(new StuckWorker(recorderUrl(OTHER_ID), undefined));
    setTimeout(() => context.addWorker(new FakeWorker(recorderUrl(), fakeAfr())), 100);

    const found = await findRecorder(playwrightSource(context), { timeoutMs: 3_000, probeRoundMs: 200 });

    expect(found.extensionId).toBe(RECORDER_ID);
    expect(stuck.evaluations).toBeGreaterThanOrEqual(1);
  });

  it('says, when nothing is found, that an incognito-like context has no recorder', async () => {
    // Playwright MCP's `isolated: true`, or `browser.newContext()` after connectOverCDP: no worker at all.
    const error = await findRecorder(playwrightSource(new FakeContext()), { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/Service workers seen: none\./);
    expect((error as Error).message).toMatch(/browser\.newContext\(\) is incognito-like/);
    expect((error as Error).message).toMatch(/isolated: true records nothing/);
  });
});
