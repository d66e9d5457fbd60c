import type { Settings } from '../../schemas/settings';
import type { BurstHold } from './burst-hold';

/** Starting and stopping the screencast of a tab through the recorder's debugger session. */
export interface ScreencastControlPort {
  attachedTabs(): number[];
  start(tabId: number, options: { quality: number; maxWidth: number; maxHeight: number; fps: number }): Promise<void>;
  stop(tabId: number): Promise<void>;
}

/** What screencast control needs of the frame sources that use it. */
export interface ScreencastControlContext {
  /** The debugger session's screencast; without it no tab casts. */
  screencast: ScreencastControlPort | undefined;
  settings(): Settings;
  /** Whether frames are recorded now. */
  capturing(): boolean;
  log(message: string): void;
  hold: Pick<BurstHold, 'isHeld' | 'heldTabs' | 'end'>;
  /** The tab's screencast started: a page that is not repainting sends no first frame. */
  started(tabId: number): void;
}

/**
 * Which tabs have their frames from the screencast: every tab with a debugger session while the
 * settings want it, each started with the settings' frame options (restarted when they change), and
 * given back to captureVisibleTab when Chromium refuses it.
 */
export class ScreencastControl {
  /** Tabs whose frames come from the screencast (the visibleTab loop leaves them alone). */
  private readonly casting = new Set<number>();
  /** The frame options the running screencasts were started with. */
  private castOptions = '';

  constructor(private readonly context: ScreencastControlContext) {}

  /** Whether the tab's frames come from its screencast (running, or held for a burst). */
  isCasting(tabId: number): boolean {
    return this.casting.has(tabId);
  }

  /** Whether any tab casts. */
  get any(): boolean {
    return this.casting.size > 0;
  }

  /** Whether the settings want the screencast now (and there is one). */
  get wanted(): boolean {
    return this.context.screencast !== undefined && this.context.settings().captureSource !== 'visibleTab' && this.context.capturing();
  }

  private get castOptionsNow() {
    const s = this.context.settings();
    return { quality: s.jpegQuality, maxWidth: s.maxWidth, maxHeight: s.maxHeight, fps: s.fps };
  }

  /** Starts the screencast on every attached tab, or stops it everywhere, as the settings say. */
  async sync(): Promise<void> {
    const port = this.context.screencast;
    if (!port) return;
    const hold = this.context.hold;
    const key = JSON.stringify(this.castOptionsNow);
    // Changed frame options: every running screencast restarts with them.
    const restart = key !== this.castOptions;
    this.castOptions = key;
    // Paused, or no screencast wanted: no burst is waited for, whatever became of the tab's session.
    if (!this.wanted) for (const tabId of hold.heldTabs()) hold.end(tabId);
    for (const tabId of port.attachedTabs()) {
      if (this.wanted) {
        if (hold.isHeld(tabId)) {
          // Held for a burst: it starts, with the current options, when the burst ends; unless `auto` is off.
          if (this.context.settings().captureSource === 'auto') continue;
          hold.end(tabId);
        } else if (this.casting.has(tabId) && !restart) continue;
        this.casting.add(tabId); // before the await: a concurrent sync must not start it twice
        await this.start(tabId);
      } else if (this.casting.delete(tabId)) {
        await port.stop(tabId).catch(() => undefined);
      }
    }
  }

  /** Starts a tab's screencast (or restarts one left running); when refused, the tab goes back to captureVisibleTab. */
  async start(tabId: number): Promise<void> {
    const port = this.context.screencast;
    if (!port) return;
    const options = this.castOptionsNow;
    await port
      .start(tabId, options)
      .catch(async (error: unknown) => {
        // A screencast left running (by the previous service worker, or with other options): restart it.
        if (!/already active/i.test(String(error))) throw error;
        await port.stop(tabId);
        await port.start(tabId, options);
      })
      .then(() => {
        // A page that is not repainting sends no first frame.
        if (this.casting.has(tabId)) this.context.started(tabId);
      })
      .catch((error: unknown) => {
        this.casting.delete(tabId);
        this.context.log(`[afr] screencast of tab ${tabId} refused: ${String(error)}; using captureVisibleTab`);
      });
  }

  /** Stops a casting tab's screencast for a burst: the tab still casts, and starts again when the burst ends. */
  stopForBurst(tabId: number): void {
    void this.context.screencast?.stop(tabId).catch((error: unknown) => this.context.log(`[afr] screencast of tab ${tabId} did not stop: ${String(error)}`));
  }

  forget(tabId: number): void {
    this.casting.delete(tabId);
  }
}
