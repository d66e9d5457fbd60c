import type { NetworkBodyMode } from '../../schemas/network';
import { bodyKind } from './body-kind';

const API_TYPES = new Set(['XHR', 'Fetch']);

/**
 * Whether the `network.bodies` setting keeps the response body of a request of this CDP resource type
 * and MIME type: `api` XHR and fetch, `documents` those and documents, `all` any text; never `off`,
 * never a binary body or an event stream (bodies of WebSockets are frames, which the log does not read).
 */
export function keepsResponseBody(mode: NetworkBodyMode, resourceType: string, mimeType: string): boolean {
  const kind = bodyKind(mimeType);
  if (mode === 'off' || kind === 'binary' || kind === 'stream') return false;
  if (mode === 'all') return true;
  if (API_TYPES.has(resourceType)) return true;
  return mode === 'documents' && resourceType === 'Document';
}

/** Whether request bodies (`postData`) are kept: with any mode but `off`. */
export const keepsRequestBody = (mode: NetworkBodyMode): boolean => mode !== 'off';
