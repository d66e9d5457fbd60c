/** A kind of warning is logged at most once per this many ms (per key: a kind and a tab). */
export const WARNING_SPACING_MS = 10_000;
/** Keys remembered at most; past that all are forgotten (each one's next warning is logged at once). */
const MAX_KEYS = 256;

/**
 * Warnings about what pages send: the first of a key, then at most one per `WARNING_SPACING_MS`
 * with the count left unsaid since. A flooding page must not flood the worker's console as well.
 */
export class ThrottledLog {
  private readonly keys = new Map<string, { loggedAt: number; unlogged: number }>();

  constructor(private readonly log: (message: string) => void) {}

  warn(key: string, now: number, message: string): void {
    const seen = this.keys.get(key);
    if (seen && now - seen.loggedAt < WARNING_SPACING_MS && now >= seen.loggedAt) {
      seen.unlogged++;
      return;
    }
    if (!seen && this.keys.size >= MAX_KEYS) this.keys.clear();
    const since = seen?.unlogged ? ` (${seen.unlogged} more since the last warning)` : '';
    this.keys.set(key, { loggedAt: now, unlogged: 0 });
    this.log(`${message}${since}`);
  }

  /** Forgets the keys that end with `suffix` (a closed tab's: keys end with its id). */
  forget(suffix: string): void {
    for (const key of this.keys.keys()) if (key.endsWith(suffix)) this.keys.delete(key);
  }
}
