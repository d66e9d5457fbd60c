/** How a body is read and masked, from its MIME type. */
export type BodyKind = 'json' | 'form' | 'text' | 'stream' | 'binary';

/**
 * `application/json`, `+json` and GraphQL answers are walked as JSON; form posts field by field; HTML,
 * XML, scripts, styles and other text as text; an event stream is never read (it does not end);
 * anything else is binary.
 */
export function bodyKind(mimeType: string): BodyKind {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return 'stream';
  if (type === 'application/json' || type.endsWith('+json') || type === 'application/graphql-response+json' || type === 'text/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (
    type.startsWith('text/') ||
    type.endsWith('+xml') ||
    ['application/xml', 'application/javascript', 'application/ecmascript', 'application/x-javascript', 'application/graphql', 'application/x-ndjson'].includes(type)
  ) {
    return 'text';
  }
  return 'binary';
}
