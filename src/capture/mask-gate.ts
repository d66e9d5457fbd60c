import type { SensitiveRectsMessage } from '../../schemas/messages';
import type { Clock } from '../shared/clock';
import { withTimeout } from '../shared/timeout';
import { DROP_REASONS, type DropReason, type DroppedFramesByReason } from '../../schemas/drop-reasons';
import { SensitiveRegions, type FrameShown, type ImageRect } from './mask-plan';
import type { CapturedImage } from './ports';
import { frameViewport } from './frame-viewport';

/** Documents of a tab's inner frames remembered at most (then forgotten, each counting as new once more). */
const MAX_SUBFRAME_DOCS = 256;

/**
 * Without a way to ask the page (`syncRegions`), a frame is masked once this long after its picture
 * was taken, with the reports that came meanwhile as well: the page reports a move the compositor
 * made (an inner scroller, a fling) a frame or two after it shows, when its main thread has the CPU.
 */
export const REPORT_WAIT_MS = 150;
/**
 * How long a frame waits for the page's answer (`syncRegions`): a page whose main thread is starved
 * or hung this long cannot tell where its fields are, and the frame is dropped.
 */
export const SYNC_WAIT_MS = 1_000;

/** What the mask gate needs of the pages and of the painting (optional: the browser may not offer it). */
export interface MaskGatePorts {
  /** Fills sensitive regions of a JPEG (OffscreenCanvas in the service worker). */
  maskFrame?(jpeg: Uint8Array, rects: readonly ImageRect[], quality: number): Promise<Uint8Array>;
  /** Asks the tab's top frame to report its sensitive regions now (they are unknown: its window changed). */
  requestRegions?(tabId: number): void;
  /**
   * Asks the tab's top frame for its sensitive regions as of its second animation frame from now
   * (`redaction/sync`): that report, or null when it has none. A frame is masked once the answer to a request sent after
   * it arrived is in. Without it, a frame is masked `reportWaitMs` after it was taken.
   */
  syncRegions?(tabId: number): Promise<SensitiveRectsMessage | null>;
  /** Without `syncRegions`: how long after its picture was taken a frame is masked (default `REPORT_WAIT_MS`; 0: at once). */
  reportWaitMs?: number;
  /**
   * The tab's browser zoom (1 = 100 %), or undefined while it is not known yet. With it, a frame's
   * surface places the regions whatever viewport the driver emulates; without it only a frame that
   * shows the whole viewport (or its top at device pixels) can be masked.
   */
  zoomOf?(tabId: number): number | undefined;
}

/** What the mask gate needs of the frame sources that use it. */
export interface MaskGateContext {
  clock: Clock;
  log(message: string): void;
  /** Whether frames are recorded now (the capture level records them, not paused). */
  capturing(): boolean;
  /** Whether the settings have frames recorded (and pages report their sensitive regions), paused or not. */
  recordsFrames(): boolean;
  jpegQuality(): number;
  /** The answer to a request for a tab's regions: a report like any the page sends by itself. */
  reported(tabId: number, report: SensitiveRectsMessage): void;
}

/**
 * The last step before any frame is stored: it waits until the tab's sensitive regions, as the frame
 * shows them, are known (the page asked, or a moment passed for its reports), then has them filled;
 * or it drops the frame when they are not known (a page whose content script has not reported since
 * it loaded, a hung page, recording stopped meanwhile). It keeps what each tab's page reported.
 */
export class MaskGate {
  private readonly regions: SensitiveRegions;
  /** When each tab's latest frame to be stored (masked, not dropped) was taken, whatever its source. */
  private readonly lastFrameAt = new Map<number, number>();
  /** Counts the times recording stopped: a frame held for its masks is dropped if it did meanwhile. */
  private captureEpoch = 0;
  /** Tabs whose last frame was dropped because their regions were unknown: a frame is taken when they report. */
  private readonly awaitingRegions = new Set<number>();
  /** The documents of frames inside each tab's page whose content scripts connected (see `subframeLoaded`). */
  private readonly subframeDocs = new Map<number, Set<string>>();
  /** Each tab's request for its regions in flight, and the one to be sent once it is answered (see `syncRegions`). */
  private readonly syncs = new Map<number, { answer: Promise<number | false>; next: Promise<number | false> | null }>();
  /** Tabs whose page did not answer in time: their frames are dropped at once (logged once) until it answers or reports. */
  private readonly unanswered = new Set<number>();
  /** Frames dropped so far, by reason. */
  private readonly drops = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as DroppedFramesByReason;

  constructor(
    private readonly ports: MaskGatePorts,
    private readonly context: MaskGateContext,
  ) {
    this.regions = new SensitiveRegions(() => context.clock.now());
  }

  /**
   * The sensitive regions the top document of a tab reported. `first`: the tab's regions were not
   * known before it; `awaited`: its last frame was dropped for want of them (take one again).
   */
  update(tabId: number, report: SensitiveRectsMessage): { first: boolean; awaited: boolean } {
    const first = !this.regions.known(tabId);
    this.regions.update(tabId, report);
    this.unanswered.delete(tabId);
    return { first, awaited: this.awaitingRegions.delete(tabId) };
  }

  /** A tab started loading a new document: its sensitive regions are unknown until it reports. */
  navigated(tabId: number): void {
    this.regions.reset(tabId);
    this.subframeDocs.delete(tabId);
  }

  /**
   * A frame inside the tab's page loaded a document (its content script connected, at
   * `document_start`): if it is another origin's, the top document's last report does not mask it.
   * The tab's regions are unknown until the top, asked now, reports again. A document seen before
   * changes nothing, nor does one that connects `again` (its port dropped by a worker that stopped):
   * it loaded before this worker started, so before the top's report that started it.
   */
  subframeLoaded(tabId: number, documentId: string | null, again: boolean): void {
    if (documentId !== null) {
      const seen = this.subframeDocs.get(tabId) ?? new Set<string>();
      if (seen.has(documentId)) return;
      if (seen.size >= MAX_SUBFRAME_DOCS) seen.clear();
      this.subframeDocs.set(tabId, seen.add(documentId));
    }
    if (again) return;
    if (!this.context.recordsFrames() || !this.regions.reset(tabId)) return;
    this.ports.requestRegions?.(tabId);
  }

  /**
   * The capture level crossed `screenshots`: below it pages stop reporting their regions, so from the
   * moment it falls the last reports may go stale; when it rises (`askAgain`) the pages are asked for fresh ones.
   */
  forgetAllReports(askAgain: boolean): void {
    const tabs = this.regions.resetAll();
    if (askAgain) for (const tabId of tabs) this.ports.requestRegions?.(tabId);
  }

  /** Recording stopped: the frames waiting for their masks are dropped, even if it starts again before they are done. */
  recordingStopped(): void {
    this.captureEpoch++;
  }

  /** What the tab's screencast frames show: when the window changed since the page reported, it is asked again. */
  noteShown(tabId: number, shown: FrameShown): void {
    // The window changed since the page reported: its regions are unknown until it reports again.
    if (this.regions.noteShown(tabId, shown)) this.ports.requestRegions?.(tabId);
  }

  /** The tab's screencast ended: the first frame of a new one is a first frame again. */
  forgetShown(tabId: number): void {
    this.regions.forgetShown(tabId);
  }

  /** Whether the tab's page has reported its regions (a frame of it can be masked now). */
  knows(tabId: number): boolean {
    return this.regions.known(tabId);
  }

  /** When the tab's latest frame to be stored was taken, whatever its source. */
  latestFrameAt(tabId: number): number | undefined {
    return this.lastFrameAt.get(tabId);
  }

  /**
   * A CDP frame taken at `takenAt` was dropped: true when it predates a report that came meanwhile (a
   * screenshot on its way), so it is to be taken again now; else the tab awaits its page's report.
   */
  noteDropped(tabId: number, takenAt: number): boolean {
    if (this.regions.predatesReports(tabId, takenAt)) return true;
    this.awaitingRegions.add(tabId);
    return false;
  }

  forget(tabId: number): void {
    this.regions.forget(tabId);
    this.lastFrameAt.delete(tabId);
    this.awaitingRegions.delete(tabId);
    this.unanswered.delete(tabId);
    this.subframeDocs.delete(tabId);
  }

  /** Frames dropped so far, by reason (every reason listed, 0 when none). */
  droppedByReason(): DroppedFramesByReason {
    return { ...this.drops };
  }

  /**
   * The last step before a frame is stored: sensitive regions filled, or the frame dropped (null) when the
   * tab's regions are not known (a page whose content script has not reported since it loaded), or
   * cannot be placed on it. Each drop is counted by its reason (`droppedByReason`).
   */
  async prepare(tabId: number, image: CapturedImage, takenAt: number, shown?: FrameShown): Promise<CapturedImage | null> {
    const outcome = await this.prepareOrDrop(tabId, image, takenAt, shown);
    if ('drop' in outcome) {
      this.drops[outcome.drop]++;
      return null;
    }
    return outcome.image;
  }

  private async prepareOrDrop(tabId: number, image: CapturedImage, takenAt: number, shown?: FrameShown): Promise<{ image: CapturedImage } | { drop: DropReason }> {
    // A frame that was on its way when recording stopped: the page may no longer report its regions.
    if (!this.context.capturing()) return { drop: 'not-recording' };
    // A captureVisibleTab frame says the tab's surface: a resized window makes the reports stale, as a screencast's does.
    if (!shown && image.shown) this.noteCapturedSurface(tabId, image.shown);
    const epoch = this.captureEpoch;
    // The compositor moves what it can (a scroller, a fling) before the page hears of it: a frame may
    // show a field where no report has it yet. The page is asked now, and answers at its second
    // animation frame, which has seen every scroll this frame shows: masked with the reports from the
    // one in force when it was taken to that answer, the frame covers where the field was, went, and
    // everything between (`SensitiveRegions.plan`). A page that cannot answer in time: dropped.
    if (this.ports.syncRegions && this.regions.known(tabId)) {
      // A page that did not answer the last time (hung, starved): dropped at once until it reports again.
      if (this.unanswered.has(tabId)) return { drop: 'page-unresponsive' };
      let timedOut = false;
      const synced = await withTimeout(this.syncRegions(tabId), SYNC_WAIT_MS, `the regions of tab ${tabId}`).catch((error: unknown): false => {
        if (!this.unanswered.has(tabId)) this.context.log(`[afr] frame of tab ${tabId} dropped: ${String(error)}`);
        this.unanswered.add(tabId);
        timedOut = true;
        return false;
      });
      if (synced === false) return { drop: timedOut ? 'page-unresponsive' : 'no-report' };
      // The answer must have been measured after the picture was taken: masks older than the picture
      // may miss what the page showed since its last report (a key that made a secret of what was
      // typed, a node added). The page measures when it answers, so only a page that answered from an
      // older measurement (or a clock gone back) lands here: the frame is not stored.
      if (synced < takenAt) return { drop: 'stale-report' };
    } else if (!this.ports.syncRegions) {
      // Masked with the reports of a moment after it was taken too. A screencast frame says when it
      // was drawn; a capture or screenshot may show any moment until it returned (now).
      const hold = this.ports.reportWaitMs ?? REPORT_WAIT_MS;
      const wait = shown ? takenAt + hold - this.context.clock.now() : hold;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, hold)));
    }
    // Recording stopped meanwhile (even if it started again): not this frame.
    if (!this.context.capturing() || this.captureEpoch !== epoch) return { drop: 'not-recording' };
    // The surface the frame shows and the tab's zoom: where the regions land, and the viewport it says.
    const surface = this.surfaceOf(tabId, image, shown);
    const zoom = this.ports.zoomOf?.(tabId);
    const planned = this.ports.maskFrame ? this.plan(tabId, image, takenAt, shown, surface, zoom) : { rects: [] };
    if ('drop' in planned) return planned;
    const { rects } = planned;
    // A frame to be stored: a burst's next captureVisibleTab frame is a second after it.
    this.lastFrameAt.set(tabId, Math.max(takenAt, this.lastFrameAt.get(tabId) ?? -Infinity));
    const viewport = frameViewport(this.regions.reportAt(tabId, takenAt), { imageWidth: image.width, imageHeight: image.height, ...(surface ? { surface } : {}), ...(zoom !== undefined ? { zoom } : {}) });
    const bare = image.shown ? withoutSurface(image) : image;
    const stored = viewport ? { ...bare, viewport } : bare;
    if (!this.ports.maskFrame) return { image: stored };
    if (rects.length === 0) return { image: { ...stored, masked: 0 } };
    return { image: { ...stored, jpeg: await this.ports.maskFrame(image.jpeg, rects, this.context.jpegQuality()), masked: rects.length } };
  }

  /**
   * Where the regions land in the frame. With the tab's zoom known, through the surface the frame
   * shows: its own (a screencast frame's metadata, a captureVisibleTab frame's tab size) or, for a
   * frame that does not say (a CDP screenshot), the tab's last one (`surfaceOf`), which its shape must agree with.
   */
  private plan(tabId: number, image: CapturedImage, takenAt: number, shown: FrameShown | undefined, surface: FrameShown | undefined, zoom: number | undefined) {
    if (zoom === undefined || !surface) return this.regions.planOrDrop(tabId, image.width, image.height, shown, takenAt);
    return this.regions.planOrDrop(tabId, image.width, image.height, surface, takenAt, zoom);
  }

  /** The surface a frame shows: its own, or the tab's last one (see `plan` and `frameViewport`). */
  private surfaceOf(tabId: number, image: CapturedImage, shown?: FrameShown): FrameShown | undefined {
    const lastSurface = this.regions.shownOf(tabId);
    return shown ?? image.shown ?? (lastSurface && { width: lastSurface.width, height: lastSurface.height });
  }

  /** A captureVisibleTab frame's surface: when it changed the reports are forgotten; at the first, a report made under it is asked for. */
  private noteCapturedSurface(tabId: number, surface: FrameShown): void {
    const first = this.regions.shownOf(tabId) === undefined;
    if (this.regions.noteShown(tabId, surface, { firstForgets: false }) || (first && this.regions.known(tabId))) this.ports.requestRegions?.(tabId);
  }

  /**
   * Resolves once the tab's page answered a request for its regions sent after this call, with when
   * the page measured that answer (its `ts`; the answer is then one of its reports), or false when it has none to give or the tab's regions were
   * forgotten meanwhile (a navigation). One request per tab at a time: frames that come while it is
   * in flight share the next one. The caller stops waiting after `SYNC_WAIT_MS`; an answer that
   * comes later still counts as a report (and brings the retake of a dropped frame).
   */
  private syncRegions(tabId: number): Promise<number | false> {
    const running = this.syncs.get(tabId);
    if (running) return (running.next ??= running.answer.then(() => this.askRegions(tabId)));
    return this.askRegions(tabId);
  }

  private askRegions(tabId: number): Promise<number | false> {
    const generation = this.regions.generation(tabId);
    const answer = this.ports.syncRegions!(tabId)
      .then((report) => {
        // No answer (no content script, not painted), or from a document since replaced.
        if (!report || generation === undefined || this.regions.generation(tabId) !== generation) return false;
        this.context.reported(tabId, report);
        return report.ts;
      })
      .catch((error: unknown): false => {
        this.context.log(`[afr] the regions of tab ${tabId}: ${String(error)}`);
        return false;
      });
    // The next request waits for this one, at most `SYNC_WAIT_MS`.
    const entry: { answer: Promise<number | false>; next: Promise<number | false> | null } = {
      answer: withTimeout(answer, SYNC_WAIT_MS, 'a request for regions')
        .catch((): false => false)
        .finally(() => {
          if (this.syncs.get(tabId) === entry) this.syncs.delete(tabId);
        }),
      next: null,
    };
    this.syncs.set(tabId, entry);
    return answer;
  }
}

/** The image as stored: the surface it showed was for placing its masks only. */
function withoutSurface(image: CapturedImage): CapturedImage {
  const stored = { ...image };
  delete stored.shown;
  return stored;
}
