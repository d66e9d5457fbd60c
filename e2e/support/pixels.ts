import { execFile } from 'node:child_process';
import { expect } from '@playwright/test';
import type { Page } from 'playwright-core';

export interface Gray {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Decodes a JPEG to 8-bit gray with the ffmpeg CLI. */
export async function decodeGray(jpeg: Buffer, width: number, height: number): Promise<Gray> {
  return { width, height, pixels: await decodeRaw(jpeg, 'gray', width * height) };
}

/** An RGB image: 3 bytes a pixel, row by row. */
export interface Rgb {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Decodes a JPEG to 8-bit RGB with the ffmpeg CLI. */
export async function decodeRgb(jpeg: Buffer, width: number, height: number): Promise<Rgb> {
  return { width, height, pixels: await decodeRaw(jpeg, 'rgb24', width * height * 3) };
}

async function decodeRaw(jpeg: Buffer, pixFmt: 'gray' | 'rgb24', bytes: number): Promise<Buffer> {
  const child = execFile('ffmpeg', ['-v', 'error', '-f', 'jpeg_pipe', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', pixFmt, 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`))));
  });
  child.stdin!.end(jpeg);
  await done;
  const pixels = Buffer.concat(chunks);
  expect(pixels.length).toBe(bytes);
  return pixels;
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
