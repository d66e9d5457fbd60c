import type { z } from 'zod';
import { DiagnosticsSchema } from '../../schemas/diagnostics';
import { ManifestSchema } from '../../schemas/manifest';
import { SnapshotFileSchema } from '../../schemas/snapshot';
import { StepsFileSchema } from '../../schemas/steps';
import { describeZodError } from '../shared/zod-error';
import type { BundleData } from './bundle-data';
import { errorMessage } from '../shared/error-message';

/** The zip is not a bundle this viewer can show; the message says which file is wrong and how. */
export class InvalidBundleError extends Error {
  override readonly name = 'InvalidBundleError';
}

/** The JSON files a bundle may hold; the viewer reads these by name. */
export const BUNDLE_JSON_FILES: readonly string[] = ['manifest.json', 'steps.json', 'diagnostics.json', 'snapshot.json'];

function parseFile<T>(name: string, schema: z.ZodType<T>, text: string | undefined, problems: string[], required: boolean): T | null | undefined {
  if (text === undefined) {
    if (required) problems.push(`${name} is missing`);
    return required ? undefined : null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push(`${name} is not valid JSON (${errorMessage(error)})`);
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    problems.push(`${name} does not match its schema: ${describeZodError(parsed.error)}`);
    return undefined;
  }
  return parsed.data;
}

/**
 * Validates the JSON files of a bundle (by file name → text) against their zod schemas: manifest and
 * steps must be there; diagnostics and snapshot may be absent (the `metadata` capture level) but must
 * be valid when present. Throws `InvalidBundleError` listing every problem in one message.
 */
export function parseBundleFiles(texts: Readonly<Record<string, string | undefined>>): BundleData {
  const problems: string[] = [];
  const manifest = parseFile('manifest.json', ManifestSchema, texts['manifest.json'], problems, true);
  const steps = parseFile('steps.json', StepsFileSchema, texts['steps.json'], problems, true);
  const diagnostics = parseFile('diagnostics.json', DiagnosticsSchema, texts['diagnostics.json'], problems, false);
  const snapshot = parseFile('snapshot.json', SnapshotFileSchema, texts['snapshot.json'], problems, false);
  if (!manifest || !steps || diagnostics === undefined || snapshot === undefined) {
    throw new InvalidBundleError(`Not a valid Agent Flight Recorder bundle:\n- ${problems.join('\n- ')}`);
  }
  return { manifest, steps, diagnostics, snapshot };
}
