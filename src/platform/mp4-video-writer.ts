import { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Mp4OutputFormat, Output } from 'mediabunny';
import type { Size } from '../shared/jpeg-size';

const toError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * Muxes the H.264 chunks of one `VideoEncoder` into an mp4 in memory, through mediabunny's muxing-only path
 * (`EncodedVideoPacketSource`: we run the encoder, it writes the boxes). `moov` goes before `mdat`
 * (`fastStart: 'in-memory'`), so a player can start before the whole file has arrived.
 *
 * Each sample lasts the duration given here, not the chunk's (the spec lets an encoder leave it null), and
 * mediabunny keeps the last sample's own duration in `stts` (mp4-muxer 5.2 copied the delta before it).
 */
export class Mp4VideoWriter {
  readonly #target = new BufferTarget();
  readonly #output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target: this.#target });
  readonly #source = new EncodedVideoPacketSource('avc');
  readonly #size: Size;
  /** mediabunny's `add` is async (it waits on its writer); the encoder's output callback is not, so adds queue here. */
  #queue: Promise<void>;
  #failure: Error | null = null;
  #written = 0;

  constructor(size: Size) {
    this.#size = size;
    this.#output.addVideoTrack(this.#source);
    this.#queue = this.#output.start().catch((error: unknown) => this.#fail(error));
  }

  /** The first error muxing met, if any: the caller stops feeding the encoder. */
  get failure(): Error | null {
    return this.#failure;
  }

  /** Samples muxed so far. */
  get written(): number {
    return this.#written;
  }

  /** Queues one chunk; call in the encoder's output order. `meta` must carry the decoder config on the first one. */
  add(chunk: EncodedVideoChunk, meta: EncodedVideoChunkMetadata | undefined, timestampUs: number, durationUs: number): void {
    const data = new Uint8Array(chunk.byteLength);
    chunk.copyTo(data);
    const packet = new EncodedPacket(data, chunk.type, timestampUs / 1e6, durationUs / 1e6);
    // The track's size is the clip's, as the encoder was configured; an encoder may leave codedWidth out.
    const withSize = meta?.decoderConfig
      ? { ...meta, decoderConfig: { ...meta.decoderConfig, codedWidth: this.#size.width, codedHeight: this.#size.height } }
      : meta;
    this.#queue = this.#queue.then(async () => {
      if (this.#failure) return;
      try {
        await this.#source.add(packet, withSize);
        this.#written += 1;
      } catch (error) {
        this.#fail(error);
      }
    });
  }

  /** Waits for every queued chunk, writes the index and returns the file; throws the first muxing error. */
  async finish(): Promise<Uint8Array> {
    await this.#queue;
    if (this.#failure) throw this.#failure;
    await this.#output.finalize();
    if (!this.#target.buffer) throw new Error('mediabunny finalized without a buffer');
    return new Uint8Array(this.#target.buffer);
  }

  /** Drops the file (after an encoder failure) once the queued chunks are through; never throws. */
  async cancel(): Promise<void> {
    await this.#queue;
    if (this.#output.state !== 'finalized' && this.#output.state !== 'canceled') await this.#output.cancel().catch(() => undefined);
  }

  #fail(error: unknown): void {
    this.#failure ??= toError(error);
  }
}
