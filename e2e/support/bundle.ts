import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Worker } from 'playwright-core';
import { afr } from './afr';
import type { BundleData } from '../../src/bundle-format/bundle-data';
import { DIAGNOSTICS_FILE, SNAPSHOT_FILE } from '../../src/bundle-format/file-names';
import { openBundleZip } from '../../src/bundle-format/open-zip';
import { parseBundleData } from '../../src/bundle-format/parse-files';

/** A bundle the recorder exported in a test: every file, and the JSON files checked against their schemas. */
export interface OpenedBundle {
  zip: Buffer;
  files: Map<string, Buffer>;
  manifest: BundleData['manifest'];
  diagnostics: NonNullable<BundleData['diagnostics']>;
  snapshot: NonNullable<BundleData['snapshot']>;
  steps: BundleData['steps'];
}

/**
 * Unzips a bundle within the readers' bounds and parses every JSON file against its schema. The tests
 * record at capture level `full`, so diagnostics and snapshot must be there. Throws on anything wrong.
 */
export async function openBundle(zip: Buffer): Promise<OpenedBundle> {
  const archive = await openBundleZip(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength));
  const { manifest, steps, diagnostics, snapshot } = parseBundleData(archive);
  if (!diagnostics) throw new Error(`${DIAGNOSTICS_FILE} is missing from the bundle`);
  if (!snapshot) throw new Error(`${SNAPSHOT_FILE} is missing from the bundle`);
  const files = new Map<string, Buffer>();
  for (const [name, bytes] of archive.files) files.set(name, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { zip, files, manifest, diagnostics, snapshot, steps };
}
export async function exportBundle(worker: Worker, id: string): Promise<OpenedBundle> {
  return openBundle(Buffer.from(await afr(worker, 'exportBundle', id), 'base64'));
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/**
 * Whether `needle` occurs in `data`. A secret of digits only counts where no digit adjoins it: a short
 * one (a CVV, a PIN) turns up by chance inside the bundle's own numbers (timestamps, sizes), where it
 * is no leak; typed or shown, it stands apart from other digits. `width`: bytes per character.
 */
function occurs(data: Buffer, needle: Buffer, digitsOnly: boolean, width: 1 | 2): boolean {
  for (let at = data.indexOf(needle); at !== -1; at = data.indexOf(needle, at + 1)) {
    if (!digitsOnly) return true;
    const before = at >= width ? data[at - width] : undefined;
    const after = data[at + needle.length];
    const wide = (i: number) => width === 1 || data[i + 1] === 0;
    if (!(isDigit(before) && wide(at - width)) && !(isDigit(after) && wide(at + needle.length))) return true;
  }
  return false;
}

/** Every place a planted secret appears in the bundle: file names, raw and as bytes in any file. */
export function findSecrets(bundle: OpenedBundle, secrets: readonly string[]): string[] {
  const hits: string[] = [];
  for (const secret of secrets) {
    const digitsOnly = /^\d+$/.test(secret);
    const found = (data: Buffer) =>
      occurs(data, Buffer.from(secret, 'utf8'), digitsOnly, 1) ||
      occurs(data, Buffer.from(JSON.stringify(secret).slice(1, -1), 'utf8'), digitsOnly, 1) ||
      occurs(data, Buffer.from(secret, 'utf16le'), digitsOnly, 2);
    for (const [name, data] of bundle.files) {
      if (name.includes(secret) || found(data)) hits.push(`${secret} in ${name}`);
    }
    if (found(bundle.zip)) hits.push(`${secret} in the zip container`);
  }
  return hits;
}

const run = promisify(execFile);

export interface ProbedClip {
  codec: string;
  width: number;
  height: number;
  durationSeconds: number;
  frames: number;
}

/** Runs ffprobe on an mp4 and returns its video stream's facts. */
export async function ffprobe(mp4: Buffer): Promise<ProbedClip> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-probe-'));
  const file = path.join(dir, 'clip.mp4');
  writeFileSync(file, mp4);
  try {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file]);
    const probe = JSON.parse(stdout) as {
      streams: { codec_type: string; codec_name: string; width: number; height: number; nb_read_frames?: string }[];
      format: { duration: string };
    };
    const video = probe.streams.find((s) => s.codec_type === 'video');
    if (!video) throw new Error('no video stream');
    return {
      codec: video.codec_name,
      width: video.width,
      height: video.height,
      durationSeconds: Number(probe.format.duration),
      frames: Number(video.nb_read_frames ?? 0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
