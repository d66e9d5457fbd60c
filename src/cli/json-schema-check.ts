import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { BundleJsonSchemas } from './bundle-json-schemas';

/** One thing wrong with a bundle. */
export interface Problem {
  /** The file concerned, as named in the zip (`(archive)` for the zip itself). */
  file: string;
  /**
   * A JSON pointer inside `file` (`/frames/3/name`), or `other.json#/pointer` when the claim being checked
   * lives in another file, or `''` when the whole file is concerned.
   */
  pointer: string;
  message: string;
}

export type JsonFileCheck = (file: string, value: unknown) => Problem[];

/** Compiles the bundle's JSON Schemas (draft 2020-12) into one checker; throws if a schema is invalid. */
export function compileJsonSchemas(schemas: BundleJsonSchemas): JsonFileCheck {
  // `allErrors` so one run lists everything wrong with a file, not only the first mismatch.
  const ajv = new Ajv2020({ allErrors: true });
  const validators = new Map<string, ValidateFunction>();
  for (const [file, schema] of Object.entries(schemas)) validators.set(file, ajv.compile(schema));
  return (file, value) => {
    const validate = validators.get(file);
    if (!validate || validate(value)) return [];
    return describeErrors(validate.errors ?? []).map((e) => ({ file, ...e }));
  };
}

/** The detail ajv keeps in `params` but leaves out of `message`. */
function detail(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return ` (${JSON.stringify(params.additionalProperty)})`;
  if (error.keyword === 'const') return ` ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'enum') return ` ${JSON.stringify(params.allowedValues)}`;
  return '';
}

/**
 * Turns ajv errors into pointer + message pairs. A union (`anyOf`, e.g. `integer | null`) reports each
 * branch and then itself; when every branch failed at the same place, the branches are folded into one
 * line: `/tab_id must be integer or must be null`.
 */
export function describeErrors(errors: readonly ErrorObject[]): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  const folded = new Set<ErrorObject>();
  const unionMessages = new Map<ErrorObject, string>();
  for (const union of errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
    const branches = errors.filter((e) => e !== union && e.schemaPath.startsWith(`${union.schemaPath}/`));
    if (branches.length > 0 && branches.every((b) => b.instancePath === union.instancePath)) {
      branches.forEach((b) => folded.add(b));
      unionMessages.set(union, [...new Set(branches.map((b) => `${b.message ?? 'is invalid'}${detail(b)}`))].join(' or '));
    }
  }
  for (const error of errors) {
    if (folded.has(error)) continue;
    const message = unionMessages.get(error) ?? `${error.message ?? 'is invalid'}${detail(error)}`;
    if (!out.some((o) => o.pointer === error.instancePath && o.message === message)) out.push({ pointer: error.instancePath, message });
  }
  return out;
}
