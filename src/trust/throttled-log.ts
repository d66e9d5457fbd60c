/** A kind of warning is logged at most once per this many ms (per key: a kind and a tab). */
export const WARNING_SPACING_MS = 10_000;
/** Keys remembered at most; past that all are forgotten (each one's next warning is logged at once). */
const MAX_KEYS = 256;

/** What follows a logged line when lines of its key went unlogged since the last one. */
export type UnloggedNote = (unlogged: number) => string;

const SINCE_LAST_WARNING: UnloggedNote = (unlogged) => ` (${unlogged} more since the last warning)`;

/**
 * Warnings about what pages send: the first of a key, then at most one per `WARNING_SPACING_MS`
 * with the count left unsaid since. A flooding page must not flood the worker's console as well.
 * A clock set back (now before the key's last line) logs at once and starts the spacing again from
 * there: a key is never silenced for longer than the spacing, however far the clock moved.
 */
export class ThrottledLog {
  private readonly keys = new Map<string, { loggedAt: number; unlogged: number }>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly note: UnloggedNote = SINCE_LAST_WARNING,
  ) {}

  warn(key: string, now: number, message: string): void {
    const seen = this.keys.get(key);
    if (seen && now - seen.loggedAt < WARNING_SPACING_MS && now >= seen.loggedAt) {
      seen.unlogged++;
      return;
    }
    if (!seen && this.keys.size >= MAX_KEYS) this.keys.clear();
    const since = seen?.unlogged ? this.note(seen.unlogged) : '';
    this.keys.set(key, { loggedAt: now, unlogged: 0 });
    this.log(`${message}${since}`);
  }

  /** Forgets the keys that end with `suffix` (a closed tab's: keys end with its id). */
  forget(suffix: string): void {
    for (const key of this.keys.keys()) if (key.endsWith(suffix)) this.keys.delete(key);
  }
}
