import type { Status } from '../../schemas/api';

type TabStatus = Status['tabs'][number];

/** What the page-level fallback still sees, and what it does not. */
const FALLBACK = 'page-level signals: uncaught errors and rejections from the page, HTTP errors and failed loads; no console errors, crashes or dialogs';

/**
 * The popup's words for a tab's debugger: on, or off and why (`status().tabs[i].debuggerError`), and
 * where the tab's signals come from then. The tooltip says what the fallback misses.
 */
export function describeDebugger(tab: Pick<TabStatus, 'debugger' | 'debuggerError'>): { text: string; title: string } {
  if (tab.debugger) return { text: 'debugger', title: 'The recorder\u2019s debugger session sees the DevTools protocol signals of this tab.' };
  return { text: `debugger off: ${debuggerOffReason(tab.debuggerError)} \u00B7 page-level signals`, title: `${tab.debuggerError ?? 'not attached'}. The recorder uses ${FALLBACK}.` };
}

function debuggerOffReason(error: string | null): string {
  if (error === null) return 'not attached yet';
  // Chrome's "… started debugging this browser" bar was closed or cancelled: respected for the tab's life.
  if (error.includes('canceled_by_user')) return 'detached by the user (the \u201Cstarted debugging this browser\u201D bar was closed)';
  if (error.includes('target_closed')) return 'Chrome closed its session (the page went where extensions may not debug)';
  return error;
}
