import type { z } from 'zod';

/** Readable one-line summary of a zod error: `fps: Too big: expected number to be <=30; foo: Unrecognized key`. */
export function describeZodError(error: z.core.$ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(input)'}: ${i.message}`).join('; ');
}
