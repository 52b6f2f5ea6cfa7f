/**
 * The outcome of a function that answers a value or a promise (the synchronous fast paths) as a
 * promise: its value, its promise, or what it threw as a rejection.
 */
export function settled<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    const r = run();
    return r instanceof Promise ? r : Promise.resolve(r);
  } catch (err) {
    return Promise.reject(err as Error);
  }
}
