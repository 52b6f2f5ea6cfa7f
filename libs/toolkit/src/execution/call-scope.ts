import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolContext } from './tool-context.js';

/**
 * The governed call a piece of code is running inside, if any. A `@Tool` method called directly
 * from a tool body inherits this call's tenant, principal and session.
 */
const scope = new AsyncLocalStorage<ToolContext>();

export const CallScope = {
  /** Runs `fn` as part of the call `ctx`. */
  run<T>(ctx: ToolContext, fn: () => T): T {
    return scope.run(ctx, fn);
  },
  /** The context of the governed call in progress, or undefined outside of one. */
  current(): ToolContext | undefined {
    return scope.getStore();
  },
};
