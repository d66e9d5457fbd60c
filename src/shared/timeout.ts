/** Raised when an awaited step takes longer than its budget. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Settles like `promise`, or rejects with a `TimeoutError` after `ms` and calls `onTimeout` (e.g. to
 * terminate a stuck worker, since a promise itself cannot be cancelled).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new TimeoutError(`${what} timed out after ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
