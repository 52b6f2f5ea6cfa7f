import type { ToolCall } from './tool-call.js';

/**
 * What a hook may change of a call before its tool runs (issue 26: a tenant rule's or a guardrail's
 * `mask`): the input the tool (and everything after: approval, audit, the parked record) sees, and
 * a rewrite of the result before it becomes the envelope, the model projection and the audit's
 * output. Fields of the pipeline's call object, never of `state`: the common call, which rewrites
 * nothing, reads one property and allocates nothing.
 */
export interface RewritableCall {
  input: unknown;
  outputRewrite: ((output: unknown) => unknown) | undefined;
}

function rewritable(call: ToolCall): RewritableCall {
  if (!('outputRewrite' in call))
    throw new TypeError('only a call of the pipeline (ToolExecutor) can be rewritten');
  return call as unknown as RewritableCall;
}

/** Replaces the input the tool will run with (and the hooks after this one see). */
export function replaceCallInput(call: ToolCall, input: unknown): void {
  rewritable(call).input = input;
}

/** Adds a rewrite of the tool's result (after its output checks, before the envelope); rewrites chain. */
export function rewriteCallOutput(call: ToolCall, rewrite: (output: unknown) => unknown): void {
  const c = rewritable(call);
  const before = c.outputRewrite;
  c.outputRewrite = before ? (o) => rewrite(before(o)) : rewrite;
}
