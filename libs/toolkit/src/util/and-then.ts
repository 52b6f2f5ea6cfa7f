/** A value now, or a promise of it: what each layer of the per-call path answers (ADR 022). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The next step after `value`: at once when `value` is a plain value, after it settles when it is a
 * promise — the one place the per-call path branches on sync/async (ADR 022: synchronous end to end
 * while every step is, a promise only from the first step that returns one). `arg` is handed to
 * `next` after the value, so a caller passes its state instead of building a closure per call. A
 * synchronous `next` that throws throws here; after a promise, its failure is the rejection.
 *
 * @example const agent = andThen(agents.create(tenantId, agentType, principal), withTool, toolName);
 */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U>;
export function andThen<T, A, U>(
  value: MaybePromise<T>,
  next: (value: T, arg: A) => MaybePromise<U>,
  arg: A,
): MaybePromise<U>;
export function andThen<T, A, U>(
  value: MaybePromise<T>,
  next: (value: T, arg: A) => MaybePromise<U>,
  arg?: A,
): MaybePromise<U> {
  if (value instanceof Promise) return value.then((settledValue: T) => next(settledValue, arg as A));
  return next(value, arg as A);
}
