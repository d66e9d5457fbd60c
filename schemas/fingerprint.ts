import { z } from 'zod';

/** A failure's fingerprint: 16 lowercase hex digits, the same for one cause on every run. */
export const FingerprintSchema = z.string().regex(/^[0-9a-f]{16}$/);

/** The readable parts a fingerprint is made of (see `src/bundle-format/fingerprint/`). */
export const FailureSignatureSchema = z
  .object({
    /** The failure's reason code. */
    reason: z.string(),
    /** The message's first line with its variable parts replaced (`<n>`, `<email>`, `<uuid>`, `<date>`…). */
    message: z.string().nullable(),
    /** The page's host and path template (`shop.test/orders/{n}/checkout`). */
    page: z.string().nullable(),
    /** A request's method, URL template and status (`GET shop.test/api/stock 503`), for network failures. */
    request: z.string().nullable(),
    /** An exception's top site frames, `function @ file template`. */
    frames: z.array(z.string()),
    /** The last action before the failure: `click button "Pay <n> EUR"`. */
    step: z.string().nullable(),
  })
  .strict();
export type FailureSignature = z.infer<typeof FailureSignatureSchema>;
