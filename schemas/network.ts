import { z } from 'zod';

/**
 * Which response and request bodies the network log keeps: `off` none, `api` those of XHR and fetch,
 * `documents` (the default) those and the pages' documents, `all` every text body (scripts and styles
 * too). Binary bodies are never kept as text.
 */
export const NETWORK_BODY_MODES = ['off', 'api', 'documents', 'all'] as const;
export type NetworkBodyMode = (typeof NETWORK_BODY_MODES)[number];

/** The `network` setting: how much of each recorded tab's traffic is kept, masked, for `network.har`. */
export const NetworkSettingsSchema = z
  .object({
    /** Which bodies are kept (see `NETWORK_BODY_MODES`). */
    bodies: z.enum(NETWORK_BODY_MODES).default('documents'),
    /** Requests kept per tab; the oldest go first. */
    maxEntries: z.number().int().min(100).max(20_000).default(2_000),
    /** Bytes kept per tab (masked headers, URLs and bodies, estimated as text); the oldest requests go first. */
    maxBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(256 * 1024 * 1024)
      .default(16 * 1024 * 1024),
    /** Largest body kept as text; a larger one is kept as its size and SHA-256. */
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(4 * 1024 * 1024)
      .default(256 * 1024),
    /** Text of all the bodies of one bundle's `network.har`; the bodies nearest the failure are kept first. */
    maxBundleBodyBytes: z
      .number()
      .int()
      .min(64 * 1024)
      .max(64 * 1024 * 1024)
      .default(4 * 1024 * 1024),
  })
  .strict();
export type NetworkSettings = z.infer<typeof NetworkSettingsSchema>;

/* ---- HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as the recorder writes it ---- */

const NameValue = z.object({ name: z.string(), value: z.string() }).strict();
const Cookie = z.object({ name: z.string(), value: z.string(), path: z.string().optional(), domain: z.string().optional(), expires: z.string().optional(), httpOnly: z.boolean().optional(), secure: z.boolean().optional() }).strict();

/** Why a body is not in the HAR as text (HAR's own fields say its size; the reason is ours). */
/**
 * `pending`: the response had not ended when the bundle was made (a page that never reads a fetch's body
 * leaves it so); `unavailable`: Chrome no longer had it (see `docs/bundle-format.md#networkhar`);
 * `stream`: a WebSocket's frames or an event stream's events, which are never read.
 */
export const BodyOmittedSchema = z.enum(['not_kept', 'binary', 'not_utf8', 'too_large', 'too_deep', 'bundle_cap', 'unavailable', 'busy', 'pending', 'stream']);
export type BodyOmitted = z.infer<typeof BodyOmittedSchema>;

/** A body's fields beyond HAR's: why it is left out or cut, and the SHA-256 of the bytes when they were read. */
const BodyExtras = {
  _omitted: BodyOmittedSchema.optional(),
  _truncated: z.boolean().optional(),
  _sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
};

/** HAR's `postData`: `params` lists a form's fields (empty otherwise), `text` is empty when the body is left out. */
export const HarPostDataSchema = z.object({ mimeType: z.string(), params: z.array(NameValue), text: z.string(), ...BodyExtras }).strict();

export const HarRequestSchema = z
  .object({
    method: z.string(),
    url: z.string(),
    httpVersion: z.string(),
    cookies: z.array(Cookie),
    headers: z.array(NameValue),
    queryString: z.array(NameValue),
    postData: HarPostDataSchema.optional(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  })
  .strict();

export const HarContentSchema = z
  .object({ size: z.number().int(), mimeType: z.string(), text: z.string().optional(), encoding: z.string().optional(), compression: z.number().int().optional(), ...BodyExtras })
  .strict();

export const HarResponseSchema = z
  .object({
    status: z.number().int(),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(Cookie),
    headers: z.array(NameValue),
    content: HarContentSchema,
    redirectURL: z.string(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
  })
  .strict();

const Ms = z.number();
export const HarTimingsSchema = z.object({ blocked: Ms, dns: Ms, connect: Ms, send: Ms, wait: Ms, receive: Ms, ssl: Ms }).strict();

export const HarEntrySchema = z
  .object({
    pageref: z.string().optional(),
    startedDateTime: z.string(),
    time: z.number().nonnegative(),
    request: HarRequestSchema,
    response: HarResponseSchema,
    cache: z.object({}).strict(),
    timings: HarTimingsSchema,
    serverIPAddress: z.string().optional(),
    /** CDP's resource type (`Document`, `XHR`, `Fetch`, `Script`…). */
    _resourceType: z.string(),
    /** Why the request failed (`net::ERR_…`), when it did; its response is then status 0. */
    _error: z.string().optional(),
    /** CDP's id of the request (the hops of a redirect share it): steps of its signals name it as `request_id`. */
    _requestId: z.string().optional(),
  })
  .strict();
export type HarEntry = z.infer<typeof HarEntrySchema>;

export const HarPageSchema = z
  .object({
    startedDateTime: z.string(),
    id: z.string(),
    title: z.string(),
    pageTimings: z.object({ onContentLoad: z.number(), onLoad: z.number() }).strict(),
  })
  .strict();
export type HarPage = z.infer<typeof HarPageSchema>;

/** What the log left out or masked, counted (`log._afr`): every bound that took effect says so. */
export const HarCountsSchema = z
  .object({
    /** Requests in the tab's log before the window was cut out of it. */
    requests_seen: z.number().int().nonnegative(),
    /** Requests the per-tab bounds dropped before the bundle was made (`maxEntries`, `maxBytes`, pending requests). */
    dropped_requests: z.number().int().nonnegative(),
    /** Header values cut to 8 KiB, headers past 100 in one message. */
    truncated_headers: z.number().int().nonnegative(),
    /** Bodies left out, by reason. */
    omitted_bodies: z.partialRecord(BodyOmittedSchema, z.number().int().nonnegative()),
    /** Values withheld because of their name (headers, cookies, query, JSON keys, form fields). */
    withheld_values: z.number().int().nonnegative(),
    /** Spans the text masker replaced in the kept text. */
    masked_spans: z.number().int().nonnegative(),
  })
  .strict();
export type HarCounts = z.infer<typeof HarCountsSchema>;

export const NETWORK_HAR_VERSION = '1.2';

/** `network.har`: the failing tab's requests in the bundle's window, masked (HAR 1.2). */
export const HarFileSchema = z
  .object({
    log: z
      .object({
        version: z.literal(NETWORK_HAR_VERSION),
        creator: z.object({ name: z.string(), version: z.string() }).strict(),
        pages: z.array(HarPageSchema),
        entries: z.array(HarEntrySchema),
        comment: z.string().optional(),
        _afr: HarCountsSchema,
      })
      .strict(),
  })
  .strict();
export type HarFile = z.infer<typeof HarFileSchema>;
