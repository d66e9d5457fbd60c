/** How `TabPages` reads a page's URL: its redacted form, and whether the debugger and capture may take it. */
export interface TabPagesPorts {
  /** The URL as the recorder keeps it (query secrets masked by the settings in force). */
  redact(url: string): string;
  /** A web page (http, https, file): one the debugger may attach to and `captureVisibleTab` may capture. */
  isWebPage(url: string): boolean;
}

/** What a report of a tab's page changed. */
export interface TabPageChange {
  /** The report was taken: the tab's URL is known now (it may be the one known before). */
  taken: boolean;
  /** The tab shows a web page now and did not before (its first one, or one after a chrome:// page). */
  becameWebPage: boolean;
}

interface KnownPage {
  url: string;
  web: boolean;
  /** The report's turn: a start-up snapshot older than it never replaces it. */
  turn: number;
}

const NOT_TAKEN: TabPageChange = { taken: false, becameWebPage: false };

/**
 * Each open tab's page as the browser last told it. Chromium reports a tab that has not committed its
 * first document (a page given on its command line, while the worker starts) with an empty URL: that
 * says nothing, and never erases a URL known already. A snapshot (`tabs.query` at start-up) is older
 * than the events that arrive while it is answered: what an event told since its `mark()` wins.
 */
export class TabPages {
  private readonly pages = new Map<number, KnownPage>();
  private turn = 0;

  constructor(private readonly ports: TabPagesPorts) {}

  /** The turn a snapshot starts at: take it before asking the browser. */
  mark(): number {
    return this.turn;
  }

  /**
   * The browser told of the tab's page: an event (`asOf` omitted), or a snapshot started at `asOf`
   * (see `mark`), which an event since then overrides.
   */
  see(tabId: number, url: string | undefined | null, asOf?: number): TabPageChange {
    if (!url) return NOT_TAKEN;
    const known = this.pages.get(tabId);
    if (asOf !== undefined && known && known.turn > asOf) return NOT_TAKEN;
    const web = this.ports.isWebPage(url);
    this.pages.set(tabId, { url: this.ports.redact(url), web, turn: ++this.turn });
    return { taken: true, becameWebPage: web && !known?.web };
  }

  /** The tab's URL (redacted), or null while none is known. */
  url(tabId: number): string | null {
    return this.pages.get(tabId)?.url ?? null;
  }

  /** Whether the tab shows a web page; undefined while its page is not known. */
  isWebPage(tabId: number): boolean | undefined {
    return this.pages.get(tabId)?.web;
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.pages.delete(tabId);
  }
}
