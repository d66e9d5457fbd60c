import { z } from 'zod';
import { FailureSignatureSchema, FingerprintSchema } from './fingerprint';

/**
 * Delivery of stored bundles to S3-compatible object storage. One source for the settings, the
 * outbox's durable entries and the index object written beside each zip.
 */

/** Where an object lives in the bucket: `<prefix>/bundles/<yyyy>/<mm>/<dd>/<bundleId>.zip` and its index. */
export const UploadStateSchema = z.enum(['pending', 'uploading', 'delivered', 'failed', 'skipped']);
export type UploadState = z.infer<typeof UploadStateSchema>;

/**
 * `<prefix>/index/<yyyy>/<mm>/<dd>/<bundleId>.json`: one flat object per delivered bundle, written after
 * its zip is confirmed, so that any engine reading S3 (DuckDB, Athena, Spark) can query a fleet's failures.
 */
export const UploadIndexRecordSchema = z
  .object({
    index_version: z.literal(1),
    bundle_id: z.string(),
    run_id: z.string(),
    agent: z.string().nullable(),
    agent_version: z.string().nullable(),
    /** `failure`, or `success` for a passing run bundled with `persistMode: 'always'`. */
    status: z.enum(['failure', 'success']),
    reason: z.string(),
    label: z.string().nullable(),
    /** The page's URL at the failure, its query string and fragment left out. */
    url: z.string().nullable(),
    started_at: z.string(),
    ended_at: z.string(),
    frame_count: z.number().int().nonnegative(),
    size_bytes: z.number().int().nonnegative(),
    /** Of the zip, lowercase hex. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    zip_key: z.string(),
    extension_version: z.string(),
    browser_version: z.string(),
    /** The bundle's failure fingerprint and its parts (`manifest.json`); absent for bundles without one. */
    fingerprint: FingerprintSchema.optional(),
    signature: FailureSignatureSchema.optional(),
    /** Requests in the bundle's `network.har`; absent when it has none (an older recorder, no debugger). */
    requests: z.number().int().nonnegative().optional(),
    /** Of those, answered 4xx or 5xx, or failed without an answer (not those the page cancelled). */
    failed_requests: z.number().int().nonnegative().optional(),
    /** `app_error` steps in `steps.json`: 2xx answers to API calls that said they failed. */
    app_errors: z.number().int().nonnegative().optional(),
  })
  .strict();
export type UploadIndexRecord = z.infer<typeof UploadIndexRecordSchema>;

/** A multipart upload in progress: the store's id for it and the ETag of each part it confirmed, in order. */
export const MultipartProgressSchema = z
  .object({
    uploadId: z.string(),
    partBytes: z.number().int().positive(),
    etags: z.array(z.string()),
  })
  .strict();
export type MultipartProgress = z.infer<typeof MultipartProgressSchema>;

/** One bundle in the outbox (IndexedDB `outbox`), kept until it is delivered or its bundle is gone. */
export const OutboxEntrySchema = z
  .object({
    bundleId: z.string(),
    state: UploadStateSchema,
    zipKey: z.string(),
    indexKey: z.string(),
    sizeBytes: z.number().int().nonnegative(),
    /**
     * The zip's SHA-256 and its index object: null until the first delivery attempt read the zip. The
     * bundle is hashed once, by the delivery, never on the way from the failure signal to the stored bundle.
     */
    sha256: z.string().nullable(),
    index: UploadIndexRecordSchema.nullable(),
    /**
     * IndexedDB had no room for the bundle: it waits in the worker's memory, delivered before any other,
     * and is lost (the entry `failed`, saying so) if the worker stops first.
     */
    memoryOnly: z.boolean().optional(),
    /** Whether the zip is confirmed: a retry after that writes only the index object. */
    zipDelivered: z.boolean(),
    multipart: MultipartProgressSchema.nullable(),
    attempts: z.number().int().nonnegative(),
    /** When the next attempt is due (epoch ms). */
    nextAttemptAt: z.number(),
    lastError: z.string().nullable(),
    /** The delivery settings a `failed` entry failed with: it is retried once they change. */
    failedWith: z.string().nullable(),
    enqueuedAt: z.number(),
    deliveredAt: z.number().nullable(),
  })
  .strict();
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/** Hosts where plain http is allowed: this machine (a store under test, a MinIO beside the browser). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https URL, or http to this machine only (a store under test, a MinIO beside the browser). */
export function isDeliveryEndpoint(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

const EndpointSchema = z.string().max(2048).refine((s) => s === '' || isDeliveryEndpoint(s), 'an https URL (http only for localhost / 127.0.0.1), without credentials or fragment');

/** `upload.s3`: an S3-compatible bucket and the credentials that write to it. */
export const S3UploadSettingsSchema = z
  .object({
    endpoint: EndpointSchema.default(''),
    /** S3's bucket naming rules: 3–63 lower-case letters, digits, dots and hyphens. */
    bucket: z
      .string()
      .regex(/^(|[a-z0-9][a-z0-9.-]{1,61}[a-z0-9])$/, 'a bucket name: 3–63 lower-case letters, digits, dots and hyphens')
      .default(''),
    region: z.string().regex(/^[a-z0-9-]{1,64}$/, 'a region such as us-east-1 (auto for R2)').default('us-east-1'),
    /** Keys start with it: `<prefix>/bundles/…` and `<prefix>/index/…`. */
    prefix: z
      .string()
      .max(512)
      .refine((s) => !s.split('/').some((p) => p === '.' || p === '..') && !/[\p{Cc}\\]/u.test(s), 'a key prefix without "..", control characters or backslashes')
      .default(''),
    /** `endpoint/bucket/key` rather than `bucket.endpoint/key`; null: path style except on amazonaws.com. */
    forcePathStyle: z.boolean().nullable().default(null),
    accessKeyId: z.string().max(256).default(''),
    secretAccessKey: z.string().max(256).default(''),
    /** For short-lived STS credentials. */
    sessionToken: z.string().max(4096).default(''),
  })
  .strict();
export type S3UploadSettings = z.infer<typeof S3UploadSettingsSchema>;

/**
 * `upload`: where stored bundles are delivered. `s3` signs requests with the keys set here; `presigned`
 * asks the team's own service for a URL per object, so no long-lived secret is in the browser.
 */
export const UploadSettingsSchema = z
  .object({
    mode: z.enum(['off', 's3', 'presigned']).default('off'),
    /** `failures`: passing runs bundled with `persistMode: 'always'` stay home. */
    include: z.enum(['all', 'failures']).default('all'),
    s3: S3UploadSettingsSchema.default(S3UploadSettingsSchema.parse({})),
    presigned: z.object({ endpoint: EndpointSchema.default('') }).strict().default({ endpoint: '' }),
  })
  .strict()
  .superRefine((upload, ctx) => {
    const missing = (path: (string | number)[], what: string) => ctx.addIssue({ code: 'custom', path, message: `${what} is needed when upload.mode is '${upload.mode}'` });
    if (upload.mode === 's3') {
      if (!upload.s3.endpoint) missing(['s3', 'endpoint'], 'an endpoint');
      if (!upload.s3.bucket) missing(['s3', 'bucket'], 'a bucket');
      if (!upload.s3.accessKeyId) missing(['s3', 'accessKeyId'], 'an access key id');
      if (!upload.s3.secretAccessKey) missing(['s3', 'secretAccessKey'], 'a secret access key');
    }
    if (upload.mode === 'presigned' && !upload.presigned.endpoint) missing(['presigned', 'endpoint'], 'a presign service endpoint');
  });
export type UploadSettings = z.infer<typeof UploadSettingsSchema>;

/** What every read-back of the settings shows in place of a secret that is set. */
export const SECRET_MASK = '••••••••';

/** The upload settings as any read-back shows them (options page, `afr.getSettings()`): the secrets masked. */
export function maskedUploadSettings(upload: UploadSettings): UploadSettings {
  const hide = (secret: string) => (secret ? SECRET_MASK : '');
  return { ...upload, s3: { ...upload.s3, secretAccessKey: hide(upload.s3.secretAccessKey), sessionToken: hide(upload.s3.sessionToken) } };
}

/**
 * A change to the upload settings as it is applied: a secret given as the mask (a form sent back as it
 * was read) keeps the secret in force.
 */
export function keepMaskedSecrets(next: UploadSettings, current: UploadSettings): UploadSettings {
  const keep = (given: string, held: string) => (given === SECRET_MASK ? held : given);
  return { ...next, s3: { ...next.s3, secretAccessKey: keep(next.s3.secretAccessKey, current.s3.secretAccessKey), sessionToken: keep(next.s3.sessionToken, current.s3.sessionToken) } };
}

/** `afr.status().upload`: how delivery stands, in counts and the last thing that went wrong. */
export const UploadStatusSchema = z
  .object({
    mode: z.enum(['off', 's3', 'presigned']),
    queued: z.number().int().nonnegative(),
    uploading: z.number().int().nonnegative(),
    delivered: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    lastError: z.string().nullable(),
    lastDeliveredAt: z.string().nullable(),
    /** Whether the upload settings come from enterprise policy (read-only here). */
    managed: z.boolean(),
    /** Bundles local retention keeps past its caps because they are not delivered yet. */
    heldByRetention: z.number().int().nonnegative(),
    /**
     * Bundles waiting for delivery in the worker's memory only (IndexedDB refused them): they are lost
     * if the worker stops before they are delivered. Absent from recorders that predate it.
     */
    memoryOnly: z.number().int().nonnegative().optional(),
  })
  .strict();
export type UploadStatus = z.infer<typeof UploadStatusSchema>;

/** A bundle's delivery, as `afr.listBundles()` shows it beside the bundle. */
export const BundleUploadSchema = z
  .object({
    state: UploadStateSchema,
    /** The zip's key in the bucket, once delivered. */
    key: z.string().optional(),
    attempts: z.number().int().nonnegative(),
    lastError: z.string().optional(),
  })
  .strict();
export type BundleUpload = z.infer<typeof BundleUploadSchema>;

/** The operator's "Test connection": the upload settings to try (unsaved ones included; a masked secret means the one in force). */
export const TestUploadInputSchema = z.object({ upload: UploadSettingsSchema }).strict();

/** What "Test connection" found: a probe object written and deleted, or what went wrong in plain words. */
export const UploadProbeResultSchema = z.object({ ok: z.boolean(), message: z.string() }).strict();
export type UploadProbeResult = z.infer<typeof UploadProbeResultSchema>;
