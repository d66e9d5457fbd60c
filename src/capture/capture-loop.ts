import type { DroppedFramesByReason } from '../../schemas/drop-reasons';
import type { Clock } from '../shared/clock';
import type { FrameRing } from '../ring/frame-ring';
import { CapturePacer } from './capture-pacer';
import { isQuotaError, type CaptureTarget, type CapturedImage, type Capturer } from './ports';
import { errorMessage } from '../shared/error-message';

export interface CaptureLoopOptions {
  intervalMs: number;
  jpegQuality: number;
}

/**
 * Runs on every captured image before it is stored: returns the image to store (e.g. with sensitive
 * regions masked) or null to drop it (e.g. when the regions to mask are not known).
 */
/** The last step before a frame is stored; `takenAt`: when its capture started (the picture is from then on). */
export type FrameFilter = (target: CaptureTarget, image: CapturedImage, takenAt: number) => Promise<CapturedImage | null>;

export interface CaptureStats {
  capturesOk: number;
  captureErrors: number;
  quotaErrors: number;
  /** Frames captured but not stored because the frame filter refused them. */
  dropped: number;
  /** The same, by reason (all sources; absent where the frame filter does not say). */
  droppedByReason?: DroppedFramesByReason;
  /** Sensitive regions the frame filter masked in stored frames. */
  maskedRegions: number;
  lastError: string | null;
  /** Frames per second stored over the last 10 seconds. */
  fps: number;
}

const FPS_WINDOW_MS = 10_000;

/**
 * Captures the active tab of each normal window in turn, paced to the capture quota, and stores
 * each frame in the ring. `requestCapture(tabId)` moves a tab to the front and brings the next call
 * forward as far as the quota allows (capture-on-action).
 */
export class CaptureLoop {
  private readonly pacer: CapturePacer;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private inFlight = false;
  private pendingTabId: number | null = null;
  private roundRobin = 0;
  private recent: number[] = [];
  private readonly counters = { capturesOk: 0, captureErrors: 0, quotaErrors: 0, dropped: 0, maskedRegions: 0, lastError: null as string | null };
  private filter: FrameFilter = async (_target, image) => image;
  private targetFilter: (target: CaptureTarget) => boolean = () => true;
  private lastTargets: CaptureTarget[] = [];

  constructor(
    private readonly capturer: Capturer,
    private readonly ring: FrameRing,
    private readonly clock: Clock,
    private options: CaptureLoopOptions,
    private readonly log: (message: string) => void = console.warn,
  ) {
    this.pacer = new CapturePacer(options.intervalMs);
  }

  /** Sets the step every frame goes through before it is stored. */
  setFrameFilter(filter: FrameFilter): void {
    this.filter = filter;
  }

  /** Leaves out targets another source covers (tabs recorded by the screencast). */
  setTargetFilter(keep: (target: CaptureTarget) => boolean): void {
    this.targetFilter = keep;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  get isRunning(): boolean {
    return this.running;
  }

  configure(options: CaptureLoopOptions): void {
    this.options = options;
    this.pacer.setSpacing(options.intervalMs);
  }

  /** Captures `tabId` as soon as the quota allows, if it is the visible tab of its window. */
  requestCapture(tabId: number): void {
    this.pendingTabId = tabId;
    if (this.running && !this.inFlight) this.schedule(this.pacer.delayUntilAllowed(this.clock.now()));
  }

  /** The tabs seen at the last capture attempt. */
  targets(): readonly CaptureTarget[] {
    return this.lastTargets;
  }

  /**
   * The tabs there are to capture now, asked of the capturer (the ones seen last when that fails).
   * Not kept: the ticks keep `targets()`, in their own order.
   */
  async listTargets(): Promise<readonly CaptureTarget[]> {
    try {
      return await this.capturer.listTargets();
    } catch {
      return this.lastTargets; // the ticks report the capturer's errors
    }
  }

  stats(): CaptureStats {
    const now = this.clock.now();
    this.recent = this.recent.filter((t) => t > now - FPS_WINDOW_MS);
    return { ...this.counters, fps: this.recent.length / (FPS_WINDOW_MS / 1000) };
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, delayMs);
  }

  private async tick(): Promise<void> {
    if (!this.running || this.inFlight) return;
    const wait = this.pacer.delayUntilAllowed(this.clock.now());
    if (wait > 0) return this.schedule(wait);
    this.inFlight = true;
    try {
      await this.captureOne();
    } finally {
      this.inFlight = false;
      const now = this.clock.now();
      this.schedule(this.pendingTabId !== null ? this.pacer.delayUntilAllowed(now) : this.pacer.delayUntilPeriodic(now));
    }
  }

  private pickTarget(targets: CaptureTarget[]): CaptureTarget | undefined {
    const wanted = this.pendingTabId;
    this.pendingTabId = null;
    const requested = targets.find((t) => t.tabId === wanted);
    if (requested) return requested;
    this.roundRobin = (this.roundRobin + 1) % Math.max(targets.length, 1);
    return targets[this.roundRobin];
  }

  private async captureOne(): Promise<void> {
    let targets: CaptureTarget[];
    try {
      targets = await this.capturer.listTargets();
    } catch (error) {
      this.pacer.recordIdleRound(this.clock.now());
      this.recordError(error);
      return;
    }
    this.lastTargets = targets;
    const target = this.pickTarget(targets.filter(this.targetFilter));
    if (!target) {
      // Nothing to capture (every tab screencast, or none capturable): look again one interval later.
      this.pacer.recordIdleRound(this.clock.now());
      return;
    }
    const takenAt = this.clock.now();
    this.pacer.recordCall(takenAt);
    try {
      const captured = await this.capturer.capture(target, this.options.jpegQuality);
      const ts = this.clock.now();
      const image = await this.filter(target, captured, takenAt);
      if (!image) {
        this.counters.dropped++;
        return;
      }
      await this.ring.add(
        { tabId: target.tabId, windowId: target.windowId, url: target.url, ts, size: image.jpeg.byteLength, width: image.width, height: image.height, masked: image.masked ?? 0, ...(image.viewport ? { viewport: image.viewport } : {}) },
        image.jpeg,
      );
      this.counters.capturesOk++;
      this.counters.maskedRegions += image.masked ?? 0;
      this.recent.push(ts);
    } catch (error) {
      if (isQuotaError(error)) {
        this.counters.quotaErrors++;
        this.pacer.recordQuotaError(this.clock.now());
      }
      this.recordError(error);
    }
  }

  private recordError(error: unknown): void {
    this.counters.captureErrors++;
    const message = errorMessage(error);
    // One line per distinct error in a row: a tab that cannot be captured must not flood the log.
    if (message !== this.counters.lastError) this.log(`[afr] capture failed: ${message}`);
    this.counters.lastError = message;
  }
}
