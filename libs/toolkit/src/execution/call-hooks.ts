import { DiscoveryService } from '@nestjs/core';
import type { LateOutcome, ToolCall, ToolCallResult, ToolCallStop } from './tool-call.js';

/**
 * An extension point of the call pipeline. Approval and audit are hooks; so are metrics.
 * Hooks are providers marked with `@ToolCallHookProvider({ order })`, found at boot.
 */
export interface ToolCallHook {
  /**
   * Runs after input validation, before the tool body, in ascending `order`. Return a stop to end
   * the call here (the tool does not run): the approval gate parks a call this way, and audit
   * refuses to run a call whose `started` event could not be made durable.
   */
  beforeExecute?(call: ToolCall): Promise<ToolCallStop | undefined> | ToolCallStop | undefined;
  /** Runs once the call has its outcome (including refused input), in descending `order`. */
  afterCall?(call: ToolCall, result: ToolCallResult): Promise<void> | void;
  /** A call that already answered TIMEOUT completed after all. */
  onLateCompletion?(call: ToolCall, outcome: LateOutcome): Promise<void> | void;
}

/** Where a hook sits in the pipeline; lower runs first before execute and last after it. */
export interface ToolCallHookOptions {
  readonly order: number;
}

/** Well-known hook positions: a tenant's rules, then approval, decide before audit records a start. */
export const HookOrder = {
  METRICS: 0,
  QUOTAS: 20,
  POLICY: 60,
  /** A tenant rule's `limit` bucket, counted once the rule decided (issue 26). */
  RULE_LIMIT: 70,
  /** Content guardrails on the input, after the rules, before approval (issue 26, ADR 045). */
  GUARDRAILS: 80,
  APPROVAL: 100,
  AUDIT: 200,
} as const;

/**
 * Marks a provider as a pipeline hook.
 * @example
 * @ToolCallHookProvider({ order: HookOrder.AUDIT })
 * @Injectable() export class AuditHook implements ToolCallHook { ... }
 */
export const ToolCallHookProvider = DiscoveryService.createDecorator<ToolCallHookOptions>();
