import { z } from 'zod';

/*
 * `network.har` as the readers take it (`afr requests`, `afr request`, the MCP tools): the fields they
 * show, in objects that ignore unknown keys, so a HAR from another recorder version (or a HAR 1.2 from
 * elsewhere, dropped into a bundle) still reads. `HarFileSchema` (`schemas/network.ts`) is the strict
 * check `afr validate` applies; a strict `HarEntry` is also a `TolerantHarEntry`.
 */

const NameValue = z.looseObject({ name: z.string(), value: z.string() });

/** Fields a body's reader shows: its text, or why it is not there. */
const BodyFields = {
  mimeType: z.string(),
  text: z.string().optional(),
  _omitted: z.string().optional(),
  _truncated: z.boolean().optional(),
  _sha256: z.string().optional(),
};

export const TolerantHarEntrySchema = z.looseObject({
  startedDateTime: z.string(),
  time: z.number(),
  request: z.looseObject({
    method: z.string(),
    url: z.string(),
    headers: z.array(NameValue),
    queryString: z.array(NameValue).optional(),
    cookies: z.array(NameValue).optional(),
    postData: z.looseObject({ ...BodyFields, params: z.array(NameValue).optional() }).optional(),
    bodySize: z.number().optional(),
  }),
  response: z.looseObject({
    status: z.number(),
    statusText: z.string(),
    headers: z.array(NameValue),
    cookies: z.array(NameValue).optional(),
    content: z.looseObject({ ...BodyFields, size: z.number(), encoding: z.string().optional() }),
    redirectURL: z.string().optional(),
    bodySize: z.number().optional(),
  }),
  _resourceType: z.string().optional(),
  _error: z.string().optional(),
});
export type TolerantHarEntry = z.infer<typeof TolerantHarEntrySchema>;

/** `network.har`: its entries, in the order the recorder wrote them (by start). */
export const TolerantHarSchema = z.object({ log: z.looseObject({ entries: z.array(TolerantHarEntrySchema) }) });
export type TolerantHar = z.infer<typeof TolerantHarSchema>;
