/** Runs one task at a time, in call order. */
export type SerialQueue = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A queue for work that must not overlap, such as jobs sharing one ffmpeg.wasm instance and its file
 * system. A failed task does not block the ones after it.
 */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}
