import { bodyView, cutText as cut, entryStart, requestRow, type BodyView, type RequestRow } from '../bundle-format/har-entry-view';
import { NETWORK_HAR_FILE } from '../bundle-format/file-names';
import { linkRequestsToSteps } from '../bundle-format/request-steps';
import type { TolerantHar, TolerantHarEntry } from '../bundle-format/tolerant-har';
import { BundleReadError } from './errors';
import type { BundleReader } from './open-bundle';
import { pageOf, type Page, type PageRequest } from './paging';

/*
 * The requests of `network.har` (every request of the failing tab in the window, masked by the
 * recorder): a page of them, or one with its headers and bodies. Every string from the page is
 * bounded here, for `--json` as for the text.
 */

/** Longest URL a list or a `--json` answer carries; a header value; headers of one list. */
const MAX_URL_CHARS = 2_000;
const MAX_VALUE_CHARS = 2_000;
const MAX_PAIRS = 100;

/** A request in a list: its row, its time from the failure, and the step that caused it (1-based), if any. */
export interface NetworkRequestEntry extends Omit<RequestRow, 'started_ts'> {
  at_ms: number;
  step: number | null;
}

/** Name/value pairs (headers, query, cookies), bounded in number and length. */
export interface PairsView {
  items: { name: string; value: string }[];
  omitted: number;
}

/** One request with what `network.har` holds about it. */
export interface NetworkRequestView extends NetworkRequestEntry {
  total: number;
  request: { headers: PairsView; query: PairsView; cookies: PairsView; body: BodyView | null };
  response: { headers: PairsView; cookies: PairsView; redirect_url: string | null; body: BodyView };
}

/** The bundle's HAR; a `BundleReadError` (argument) when the bundle has none. */
async function requireHar(reader: BundleReader): Promise<TolerantHar> {
  const har = await reader.har();
  if (!har) throw new BundleReadError(`the bundle has no ${NETWORK_HAR_FILE} (written before the network log, or of no tab)`, 'argument');
  return har;
}

/** The step (0-based, -1 none) each entry came from, by time and tab; none when the steps cannot be read. */
async function stepsOfEntries(reader: BundleReader, entries: readonly TolerantHarEntry[]): Promise<number[]> {
  const steps = await reader.steps().catch(() => []);
  return linkRequestsToSteps(steps, entries.map(entryStart), reader.manifest.tab_id).stepOfRequest;
}

function entryView(reader: BundleReader, entry: TolerantHarEntry, i: number, step: number): NetworkRequestEntry {
  const { started_ts, url, ...row } = requestRow(entry, i);
  return { ...row, url: cut(url, MAX_URL_CHARS), at_ms: Number.isFinite(started_ts) ? started_ts - reader.failureTs : 0, step: step >= 0 ? step + 1 : null };
}

/** Whether the bundle holds `network.har`. */
export function hasHar(reader: BundleReader): boolean {
  return reader.archive.has(NETWORK_HAR_FILE);
}

/** A page of every request of `network.har`, in its order (by start). */
export async function listHarRequests(reader: BundleReader, request: PageRequest): Promise<Page<NetworkRequestEntry>> {
  const entries = (await requireHar(reader)).log.entries;
  const page = pageOf(entries, request);
  const steps = await stepsOfEntries(reader, entries);
  return { ...page, items: page.items.map((entry, i) => entryView(reader, entry, page.first - 1 + i, steps[page.first - 1 + i]!)) };
}

const pairs = (list: readonly { name: string; value: string }[] | undefined): PairsView => ({
  items: (list ?? []).slice(0, MAX_PAIRS).map((p) => ({ name: cut(p.name, 200), value: cut(p.value, MAX_VALUE_CHARS) })),
  omitted: Math.max(0, (list ?? []).length - MAX_PAIRS),
});

/** Request `index` (1-based) of `network.har`: headers, query, cookies, bodies (JSON pretty-printed), all bounded. */
export async function readHarRequest(reader: BundleReader, index: number): Promise<NetworkRequestView> {
  const entries = (await requireHar(reader)).log.entries;
  const entry = entries[index - 1];
  if (!Number.isInteger(index) || !entry) throw new BundleReadError(`request ${index} is out of range: ${NETWORK_HAR_FILE} holds ${entries.length} requests`, 'argument');
  const steps = await stepsOfEntries(reader, entries);
  const { request, response } = entry;
  return {
    ...entryView(reader, entry, index - 1, steps[index - 1]!),
    total: entries.length,
    request: { headers: pairs(request.headers), query: pairs(request.queryString), cookies: pairs(request.cookies), body: request.postData ? bodyView(request.postData) : null },
    response: {
      headers: pairs(response.headers),
      cookies: pairs(response.cookies),
      redirect_url: response.redirectURL ? cut(response.redirectURL, MAX_URL_CHARS) : null,
      body: bodyView(response.content),
    },
  };
}
