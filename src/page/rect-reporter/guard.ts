import { errorMessage } from '../../shared/error-message';

/** Runs `fn`; what it throws is warned about, never thrown on. */
export type Guard = (what: string, fn: () => void) => void;

/** Distinct problems warned about at most: a bug hit on every event must not flood the page's console. */
const MAX_WARNINGS = 10;

/**
 * The guard every listener, observer and timer of the reporter runs in: it runs inside the page's
 * own tasks, so a bug of the recorder is logged (each problem once), never thrown into the page.
 */
export function createGuard(warn: (message: string) => void): Guard {
  const warned = new Set<string>();
  return (what, fn) => {
    try {
      fn();
    } catch (err) {
      const text = `${what} failed: ${errorMessage(err)}`;
      if (warned.size >= MAX_WARNINGS || warned.has(text)) return;
      warned.add(text);
      warn(text);
    }
  };
}
