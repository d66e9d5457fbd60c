/** A remembered task: see `onceUntilFailure`. */
export interface OnceUntilFailure<T> {
  (): Promise<T>;
  /** Forgets the task, settled or not: the next call runs it again (a database connection the browser closed). */
  forget(): void;
}

/**
 * Runs `run` on the first call and gives every later call the same promise; one that rejects is
 * forgotten, so the next call runs it again (a store that failed once may answer now).
 */
export function onceUntilFailure<T>(run: () => Promise<T>): OnceUntilFailure<T> {
  let running: Promise<T> | null = null;
  const once = (() => {
    const attempt = (running ??= run().catch((error: unknown) => {
      if (running === attempt) running = null;
      throw error;
    }));
    return attempt;
  }) as OnceUntilFailure<T>;
  once.forget = () => {
    running = null;
  };
  return once;
}
