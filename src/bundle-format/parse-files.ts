import type { z } from 'zod';
import { describeZodError } from '../shared/zod-error';
import { errorMessage } from '../shared/error-message';
import type { BundleData } from './bundle-data';
import { BUNDLE_JSON_FILES, type BundleJsonFile } from './file-registry';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import type { BundleArchive } from './open-zip';

/** Why a JSON file of the bundle could not be used. */
export type FileProblem = 'missing' | 'not-json' | 'too-deep' | 'schema';

/**
 * One JSON file, read. On failure `error` says why: `missing from the bundle`, `not valid JSON (…)`,
 * `nested more than 512 levels deep`, or for `schema` the zod issues (`tab_id: Invalid input…`).
 */
export type FileRead<T> = { ok: true; value: T } | { ok: false; problem: FileProblem; error: string };

/** Reads one JSON file of the archive as strict UTF-8 JSON, its nesting bounded; says why when it cannot. */
export function readJsonFile(archive: BundleArchive, name: string): FileRead<unknown> {
  const bytes = archive.files.get(name);
  if (!bytes) return { ok: false, problem: 'missing', error: 'missing from the bundle' };
  let text: string;
  try {
    // `fatal`: bytes that are not UTF-8 make the file unreadable instead of turning into U+FFFD.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    return { ok: false, problem: 'not-json', error: `not valid JSON (${errorMessage(error)})` };
  }
  if (nestsDeeperThan(text)) return { ok: false, problem: 'too-deep', error: `nested more than ${MAX_JSON_DEPTH} levels deep` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: 'not-json', error: `not valid JSON (${errorMessage(error)})` };
  }
}

/**
 * Reads one JSON file and checks it against `schema`: the file's own (`BUNDLE_JSON_FILES`) for a strict
 * reading, or a tolerant one (`tolerant-schemas.ts`) for a summary that survives other recorder versions.
 * `modernize` brings an earlier version of the file to the current one first.
 */
export function parseJsonFile<T>(archive: BundleArchive, name: string, schema: z.ZodType<T>, modernize?: (json: unknown) => unknown): FileRead<T> {
  const read = readJsonFile(archive, name);
  if (!read.ok) return read;
  const parsed = schema.safeParse(modernize ? modernize(read.value) : read.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: 'schema', error: describeZodError(parsed.error) };
}

/** The zip is not a bundle that can be shown; the message says which file is wrong and how. */
export class InvalidBundleError extends Error {
  override readonly name = 'InvalidBundleError';
}

/** `manifest.json is missing`, `steps.json does not match its schema: …`: one line per file. */
function describeProblem(name: string, read: { problem: FileProblem; error: string }): string {
  if (read.problem === 'missing') return `${name} is missing`;
  if (read.problem === 'schema') return `${name} does not match its schema: ${read.error}`;
  return `${name} is ${read.error}`;
}

/**
 * Reads the JSON files of a bundle against their schemas, earlier versions brought to the current one
 * (`modernize-manifest.ts`): manifest and steps must be there; diagnostics,
 * snapshot and network.har may be absent (the `metadata` capture level) but must be valid when present. Throws
 * `InvalidBundleError` listing every problem in one message.
 */
export function parseBundleData(archive: BundleArchive): BundleData {
  const problems: string[] = [];
  const parse = <T>(file: BundleJsonFile<T>): T | null | undefined => {
    const read = parseJsonFile(archive, file.name, file.schema, file.modernize);
    if (read.ok) return read.value;
    if (read.problem === 'missing' && !file.required) return null;
    problems.push(describeProblem(file.name, read));
    return undefined;
  };
  const manifest = parse(BUNDLE_JSON_FILES.manifest);
  const steps = parse(BUNDLE_JSON_FILES.steps);
  const diagnostics = parse(BUNDLE_JSON_FILES.diagnostics);
  const snapshot = parse(BUNDLE_JSON_FILES.snapshot);
  const har = parse(BUNDLE_JSON_FILES.har);
  if (!manifest || !steps || diagnostics === undefined || snapshot === undefined || har === undefined) {
    throw new InvalidBundleError(`Not a valid Agent Flight Recorder bundle:\n- ${problems.join('\n- ')}`);
  }
  return { manifest, steps, diagnostics, snapshot, ...(har ? { har } : {}) };
}
