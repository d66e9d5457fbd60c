import { BundleReadError } from './errors';

/** Which page of a list to read: 1-based, `pageSize` entries each. */
export interface PageRequest {
  page: number;
  pageSize: number;
}

/** One page of a list, with what the reader needs to ask for the next. */
export interface Page<T> {
  items: T[];
  /** 1-based index (in the whole list) of the first item on this page. */
  first: number;
  page: number;
  pageSize: number;
  pages: number;
  total: number;
  /** Items after this page (0 on the last). */
  remaining: number;
}

export const DEFAULT_PAGE_SIZE = 20;
/** Most entries one page may hold, whatever is asked: the output stays sized for a model's context. */
export const MAX_PAGE_SIZE = 200;

/** Checks a page request; throws `BundleReadError` (argument) for a page or size that is not a positive whole number. */
export function pageRequest(page: number = 1, pageSize: number = DEFAULT_PAGE_SIZE): PageRequest {
  if (!Number.isInteger(page) || page < 1) throw new BundleReadError(`page must be a whole number from 1 (got ${page})`, 'argument');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new BundleReadError(`page size must be a whole number from 1 to ${MAX_PAGE_SIZE} (got ${pageSize})`, 'argument');
  }
  return { page, pageSize };
}

/**
 * Page `page` of `items`. An empty list has one empty page; a page past the last is refused with
 * `BundleReadError` saying how many there are.
 */
export function pageOf<T>(items: readonly T[], { page, pageSize }: PageRequest): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / pageSize));
  if (page > pages) throw new BundleReadError(`page ${page} is out of range: ${items.length} entries make ${pages} page${pages === 1 ? '' : 's'} of ${pageSize}`, 'argument');
  const start = (page - 1) * pageSize;
  const slice = items.slice(start, start + pageSize);
  return { items: slice, first: start + 1, page, pageSize, pages, total: items.length, remaining: Math.max(0, items.length - start - slice.length) };
}
