import { launchWithRecorder, type RecorderBrowser } from './launch';

/**
 * Fresh recorder browsers, the next one launched while the one a test is done with closes (1–4 s
 * each here, now side by side): each test still gets a new profile and extension nobody used.
 */
export class BrowserPool {
  private spare: Promise<RecorderBrowser> | null = null;
  private readonly pending = new Set<Promise<unknown>>();

  /** A new browser: the spare when its service worker is still the one it started with, else one launched now. */
  async take(): Promise<RecorderBrowser> {
    const launching = this.spare;
    this.spare = null;
    const spare = await launching;
    // Playwright's session keeps an idle worker alive (seen for 75 s here); a spare whose worker stopped all the same is not used.
    if (spare?.context.serviceWorkers().includes(spare.worker)) return spare;
    if (spare) this.closeLater(spare);
    return launchWithRecorder();
  }

  /** Starts the next test's browser now. */
  launchSpare(): void {
    if (this.spare) return;
    this.spare = launchWithRecorder();
    // A launch that fails is seen by the test that takes it.
    this.spare.catch(() => undefined);
  }

  /** Waits until the spare's launch and every close are over: nothing starts or stops while a test runs. */
  async settled(): Promise<void> {
    await this.spare?.catch(() => undefined);
    while (this.pending.size) await Promise.all(this.pending);
  }

  /** Closes `browser` without waiting; `close()` waits for it. */
  closeLater(browser: RecorderBrowser | Promise<RecorderBrowser>): void {
    const closing = Promise.resolve(browser)
      .then((b) => b.close())
      .catch(() => undefined)
      .finally(() => this.pending.delete(closing));
    this.pending.add(closing);
  }

  /** Closes the spare and waits for every browser being closed. */
  async close(): Promise<void> {
    if (this.spare) this.closeLater(this.spare);
    this.spare = null;
    while (this.pending.size) await Promise.all(this.pending);
  }
}
