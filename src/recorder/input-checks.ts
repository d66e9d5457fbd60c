import type { z } from 'zod';
import { BUNDLE_ID_PATTERN } from '../bundle/bundle-id';
import { describeZodError } from '../shared/zod-error';

/** Thrown to the automation API caller with a message that says what was wrong. */
export class RecorderInputError extends Error {
  override readonly name = 'RecorderInputError';
}

/** A zod schema, as far as checking an input goes. */
interface InputSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: z.core.$ZodError };
}

/** The input as the schema gives it, or a `RecorderInputError` naming the call (`afr.fail: reason …`). */
export function parseInput<T>(schema: InputSchema<T>, input: unknown, call: string): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RecorderInputError(`${call}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** The id, if it is a bundle id: a caller's string never reaches a store as a path or key of its own choosing. */
export function checkBundleId(id: unknown): string {
  if (typeof id !== 'string' || !BUNDLE_ID_PATTERN.test(id)) throw new RecorderInputError(`not a bundle id: ${JSON.stringify(id)}`);
  return id;
}
