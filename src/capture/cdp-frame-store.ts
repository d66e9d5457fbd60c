import type { FrameRing } from '../ring/frame-ring';
import type { FrameSource } from '../ring/ports';
import { base64ToBytes } from '../shared/base64';
import { errorMessage } from '../shared/error-message';
import { readJpegSize } from '../shared/jpeg-size';
import type { CaptureStats } from './capture-loop';
import type { FrameShown } from './mask-plan';
import type { MaskGate } from './mask-gate';

/**
 * A JPEG from CDP (base64); for a screencast frame, the CSS size of what it shows and its scroll; when its picture
 * was taken if that is known to be earlier than its arrival (drawn, or a screenshot asked for).
 */
export interface CdpFrame {
  data: string;
  shown?: FrameShown;
  takenAt?: number;
}

/** What storing a CDP frame needs of the frame sources that use it. */
export interface CdpFrameStoreContext {
  ring: FrameRing;
  gate: Pick<MaskGate, 'prepare' | 'noteDropped'>;
  /** The tab's current URL (redacted), as best known. */
  tabUrl(tabId: number): string | null;
  log(message: string): void;
  /** A frame of the tab was dropped: its picture was not kept, and may come again. */
  forgetPicture(tabId: number): void;
  /** Takes another frame of the tab now (the dropped one, taken at `takenAt`, predates the report that came meanwhile). */
  retake(tabId: number, takenAt: number): void;
}

/** Stores the frames that come from CDP (screencast and screenshots) in the ring, through the mask gate like any frame. */
export class CdpFrameStore {
  private readonly stats = { stored: 0, dropped: 0, masked: 0, errors: 0 };

  constructor(private readonly context: CdpFrameStoreContext) {}

  /** The capture loop's statistics with the CDP frames added: both sources. */
  addStats(loop: CaptureStats): CaptureStats {
    return {
      ...loop,
      capturesOk: loop.capturesOk + this.stats.stored,
      captureErrors: loop.captureErrors + this.stats.errors,
      dropped: loop.dropped + this.stats.dropped,
      maskedRegions: loop.maskedRegions + this.stats.masked,
    };
  }

  /** Stores a frame from CDP (screencast or screenshot), at `ts` in the ring, through the same masking as any frame. */
  async store(tabId: number, ts: number, frame: CdpFrame, source: FrameSource): Promise<void> {
    const takenAt = frame.takenAt ?? ts;
    try {
      const jpeg = base64ToBytes(frame.data);
      const size = readJpegSize(jpeg);
      if (!size) throw new Error('not a readable JPEG');
      const image = await this.context.gate.prepare(tabId, { jpeg, ...size }, takenAt, frame.shown);
      if (!image) {
        this.stats.dropped++;
        this.context.forgetPicture(tabId);
        // Taken before the page's report that came meanwhile (a screenshot on its way): again now.
        // Else again once the page reports.
        if (this.context.gate.noteDropped(tabId, takenAt)) this.context.retake(tabId, takenAt);
        return;
      }
      await this.context.ring.add(
        { tabId, windowId: -1, url: this.context.tabUrl(tabId), ts, size: image.jpeg.byteLength, width: image.width, height: image.height, masked: image.masked ?? 0, source, ...(image.viewport ? { viewport: image.viewport } : {}) },
        image.jpeg,
      );
      this.stats.stored++;
      this.stats.masked += image.masked ?? 0;
    } catch (error) {
      this.stats.errors++;
      this.context.log(`[afr] ${source} frame of tab ${tabId} not stored: ${errorMessage(error)}`);
    }
  }
}
