import type { Settings } from '../../schemas/settings';

/** Which tabs are recorded (the `scope` setting). */
export type ScopeMode = Settings['scope'];

/** What the scope decision reads about one tab. */
export interface TabFacts {
  /** The tab's page URL as the browser last reported it (only its origin is read), if known. */
  url: string | null;
  /** The agent drives it: the tab of its `runStart`, or one opened by automation (see `TabScope`). */
  agent: boolean;
  /** The operator chose it in the popup ("Record this tab"). */
  chosen: boolean;
}

/** The origin of a web page's URL (`https://shop.example`), or null for anything else (about:, chrome:, file:). */
export function webOrigin(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether the page at `url` is of an origin the allow-list names: an exact origin, or `*.example.com`
 * for that host and every host under it (http or https, any port).
 */
export function matchesScopeOrigins(url: string | null, patterns: readonly string[]): boolean {
  const origin = webOrigin(url);
  if (origin === null) return false;
  const host = new URL(origin).hostname;
  return patterns.some((pattern) => {
    if (!pattern.startsWith('*.')) return pattern === origin;
    const base = pattern.slice(2);
    return host === base || host.endsWith(`.${base}`);
  });
}

/** Whether a tab is recorded under the scope: every tab, the agent's tabs, or the chosen tabs and origins. */
export function isTabRecorded(mode: ScopeMode, origins: readonly string[], tab: TabFacts): boolean {
  switch (mode) {
    case 'all':
      return true;
    case 'agent':
      return tab.agent;
    case 'chosen':
      return tab.chosen || matchesScopeOrigins(tab.url, origins);
  }
}
