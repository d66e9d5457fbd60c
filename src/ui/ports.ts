import type { OperatorCall } from './operator-client';
import type { WebTab } from './tab-choice';

/** Everything the operator pages need from the browser; `chrome-ports.ts` implements it, tests fake it. */
export interface UiPorts {
  /** The background's operator API. */
  call: OperatorCall;
  /** `viewer.html?id=<bundleId>` of this extension. */
  viewerUrl(bundleId: string): string;
  /** An extension page by file name: `library.html`, `options.html`. */
  pageUrl(page: 'library.html' | 'options.html'): string;
  /** The http(s) tabs, the one the operator most likely means first. */
  listWebTabs(): Promise<WebTab[]>;
  /** The web page visible in the last focused normal window, or null. */
  visibleWebTab(): Promise<WebTab | null>;
  /** Asks the operator to confirm a destructive action. */
  confirm(question: string): boolean;
  now(): number;
}
