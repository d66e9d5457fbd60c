import JSZip from 'jszip';
import type { z } from 'zod';
import { ManifestSchema, type Artifact, type Manifest } from '../../schemas/manifest';
import { DiagnosticsSchema, type Diagnostics } from '../../schemas/diagnostics';
import { SnapshotFileSchema, type SnapshotFile } from '../../schemas/snapshot';
import { StepsFileSchema, type StepsFile } from '../../schemas/steps';
import { describeZodError } from '../settings/settings-store';

export interface BundleContents {
  manifest: Omit<Manifest, 'artifacts' | 'frame_count' | 'frames'>;
  snapshot: SnapshotFile;
  diagnostics: Diagnostics;
  steps: StepsFile;
  /** JPEG frames in time order. */
  frames: readonly { jpeg: Uint8Array; ts: number; durationMs: number; width: number; height: number }[];
  clip: Uint8Array | null;
}

/** A bundle file failed its schema: a recorder bug, reported instead of writing a bad bundle. */
export class BundleValidationError extends Error {
  override readonly name = 'BundleValidationError';
}

function validated<T>(file: string, schema: z.ZodType<T>, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BundleValidationError(`${file} does not match its schema: ${describeZodError(parsed.error)}`);
  return `${JSON.stringify(parsed.data, null, 2)}\n`;
}

export const frameFileName = (index: number): string => `frames/frame_${String(index + 1).padStart(4, '0')}.jpeg`;

/**
 * Lays out and zips a bundle. Every JSON file is validated against its schema before it is written;
 * JPEG and MP4 data are stored uncompressed (they are compressed already).
 */
export async function writeBundle(contents: BundleContents): Promise<{ zip: Uint8Array; manifest: Manifest }> {
  const zip = new JSZip();
  const artifacts: Artifact[] = [];
  // manifest.json comes first in the archive: a placeholder now, its content once sizes are known.
  zip.file('manifest.json', '');
  const add = (name: string, data: string | Uint8Array, compress: boolean) => {
    zip.file(name, data, { compression: compress ? 'DEFLATE' : 'STORE', date: new Date(contents.manifest.ended_at) });
    artifacts.push({ name, size_bytes: typeof data === 'string' ? new TextEncoder().encode(data).byteLength : data.byteLength });
  };

  add('snapshot.json', validated('snapshot.json', SnapshotFileSchema, contents.snapshot), true);
  add('diagnostics.json', validated('diagnostics.json', DiagnosticsSchema, contents.diagnostics), true);
  add('steps.json', validated('steps.json', StepsFileSchema, contents.steps), true);
  contents.frames.forEach((frame, i) => add(frameFileName(i), frame.jpeg, false));
  if (contents.clip) add('failure.mp4', contents.clip, false);

  const frames = contents.frames.map((f, i) => ({
    name: frameFileName(i),
    captured_at: new Date(f.ts).toISOString(),
    ts: f.ts,
    duration_ms: f.durationMs,
    width: f.width,
    height: f.height,
  }));
  const manifest = ManifestSchema.parse({ ...contents.manifest, frame_count: frames.length, frames, artifacts });
  zip.file('manifest.json', validated('manifest.json', ManifestSchema, manifest), {
    compression: 'DEFLATE',
    date: new Date(contents.manifest.ended_at),
  });
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'STORE' });
  return { zip: bytes, manifest };
}
