import { spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import type { OpenedBundle } from './bundle';

/** A JPEG and the size it decodes to (a bundle's frame entry says it). */
export interface JpegFrame {
  jpeg: Buffer;
  width: number;
  height: number;
}

/** An 8-bit gray image (a JPEG's Y plane): 1 byte a pixel, row by row. */
export interface Gray {
  width: number;
  height: number;
  pixels: Buffer;
}

/** An RGB image: 3 bytes a pixel, row by row. */
export interface Rgb {
  width: number;
  height: number;
  pixels: Buffer;
}

/** A bundle's frame entries, each with its JPEG: what the decoders take. */
export function jpegFramesOf(bundle: OpenedBundle) {
  return bundle.manifest.frames.map((frame) => ({ ...frame, jpeg: bundle.files.get(frame.name)! }));
}

/** Decodes JPEGs to 8-bit gray with the ffmpeg CLI, one process for all of them; yields each frame with its image, in order. */
export function decodeGrayFrames<F extends JpegFrame>(frames: readonly F[]): AsyncGenerator<{ frame: F; img: Gray }> {
  return decodeRaw(frames, 'gray', 1);
}

/** Decodes JPEGs to 8-bit RGB with the ffmpeg CLI, one process for all of them; yields each frame with its image, in order. */
export function decodeRgbFrames<F extends JpegFrame>(frames: readonly F[]): AsyncGenerator<{ frame: F; img: Rgb }> {
  return decodeRaw(frames, 'rgb24', 3);
}

/** Decodes one JPEG to 8-bit gray with the ffmpeg CLI. */
export async function decodeGray(jpeg: Buffer, width: number, height: number): Promise<Gray> {
  return only(decodeGrayFrames([{ jpeg, width, height }]));
}

/** Decodes one JPEG to 8-bit RGB with the ffmpeg CLI. */
export async function decodeRgb(jpeg: Buffer, width: number, height: number): Promise<Rgb> {
  return only(decodeRgbFrames([{ jpeg, width, height }]));
}

async function only<T>(decoded: AsyncGenerator<{ img: T }>): Promise<T> {
  const images: T[] = [];
  for await (const { img } of decoded) images.push(img);
  return images[0]!;
}

/**
 * One ffmpeg process decodes the JPEGs sent one after another (`jpeg_pipe`), each at its own size
 * (`-autoscale 0`: not scaled to the first one's), into raw frames back to back: the same bytes as one
 * process per frame, which cost ~0.3 s a frame to start on a loaded 2-core machine. Each image is
 * yielded as soon as its bytes are in, so a bundle's frames are never all held decoded at once.
 */
async function* decodeRaw<F extends JpegFrame>(frames: readonly F[], pixFmt: 'gray' | 'rgb24', bytesPerPixel: number): AsyncGenerator<{ frame: F; img: Gray }> {
  if (!frames.length) return;
  const child = spawn('ffmpeg', ['-v', 'error', '-f', 'jpeg_pipe', '-i', 'pipe:0', '-autoscale', '0', '-f', 'rawvideo', '-pix_fmt', pixFmt, 'pipe:1']);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  // Awaited once the output is read; a consumer that stops early must not leave it unhandled.
  exited.catch(() => undefined);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // ffmpeg stopping early (a broken JPEG) closes its input: the exit code says why, not EPIPE.
  child.stdin.on('error', () => undefined);
  child.stdin.end(Buffer.concat(frames.map((f) => f.jpeg)));
  let chunks: Buffer[] = [];
  let buffered = 0;
  let next = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      buffered += chunk.length;
      for (let frame = frames[next]; frame && buffered >= frame.width * frame.height * bytesPerPixel; frame = frames[next]) {
        const size = frame.width * frame.height * bytesPerPixel;
        const data = Buffer.concat(chunks, buffered);
        chunks = buffered > size ? [data.subarray(size)] : [];
        buffered -= size;
        next++;
        yield { frame, img: { width: frame.width, height: frame.height, pixels: data.subarray(0, size) } };
      }
    }
    const code = await exited;
    if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`);
    if (next !== frames.length || buffered) {
      throw new Error(`ffmpeg decoded ${next} of ${frames.length} frames (${buffered} bytes left over): a frame is not the size its entry says`);
    }
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/** Pixels of `img` (RGB) that are plainly red: what a card field of `scroll.html` shows unmasked. */
export function redPixels(img: Rgb): number {
  let n = 0;
  for (let i = 0; i < img.pixels.length; i += 3) {
    if (img.pixels[i]! > 190 && img.pixels[i + 1]! < 90 && img.pixels[i + 2]! < 90) n++;
  }
  return n;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Mean and standard deviation of the luma inside `box` (CSS px of a `viewportWidth` page, scaled to
 * the image), shrunk by `inset` CSS px and clipped to the image: a screencast frame may show only the
 * top of the viewport (1280×577 of 1280×720 headless).
 */
export function lumaStats(img: Gray, box: Box, viewportWidth: number, inset = 3): { mean: number; std: number; ink: number } {
  const s = img.width / viewportWidth;
  const x0 = Math.ceil((box.x + inset) * s);
  const y0 = Math.ceil((box.y + inset) * s);
  const x1 = Math.min(img.width, Math.floor((box.x + box.width - inset) * s));
  const y1 = Math.min(img.height, Math.floor((box.y + box.height - inset) * s));
  let n = 0;
  let sum = 0;
  let sq = 0;
  let dark = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const v = img.pixels[y * img.width + x]!;
      n++;
      sum += v;
      sq += v * v;
      if (v < 160) dark++;
    }
  }
  if (!n) throw new Error(`empty box ${JSON.stringify(box)}`);
  const mean = sum / n;
  return { mean, std: Math.sqrt(Math.max(0, sq / n - mean * mean)), ink: dark / n };
}

/** Covers the page with noise repainted every frame: JPEG cannot shrink it, so a few seconds make megabytes. */
export async function paintNoise(page: Page): Promise<void> {
  await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = innerWidth;
    canvas.height = innerHeight;
    canvas.style.cssText = 'position:fixed;inset:0;z-index:99999';
    document.body.append(canvas);
    const g = canvas.getContext('2d')!;
    const paint = () => {
      const image = g.createImageData(canvas.width, canvas.height);
      const bytes = new Uint32Array(image.data.buffer);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (Math.random() * 0xffffffff) | 0xff000000;
      g.putImageData(image, 0, 0);
      requestAnimationFrame(paint);
    };
    paint();
  });
}
