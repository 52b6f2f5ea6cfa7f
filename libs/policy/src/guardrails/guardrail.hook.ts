import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import type { GuardrailCheck } from '@toolgate/contract/rules';
import {
  ErrorCode,
  errorEnvelope,
  HookOrder,
  noteGuardrailFinding,
  replaceCallInput,
  rewriteCallOutput,
  ToolCallFailedError,
  ToolCallHookProvider,
  type ErrorEnvelope,
  type Locale,
  type ToolCall,
  type ToolCallHook,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { policyDeniedEvent } from '../policy-denied-event.js';
import { scanContent } from './content-scan.js';

/**
 * A tenant's content guardrails on a bound tool (issue 26, ADR 045), after the rules, before the
 * approval gate. On the input: what is found is masked before the tool sees it, refuses the call
 * (POLICY_DENIED, an `access_denied` event), or parks it for a person (the gate reads the finding).
 * On the result, before it becomes the envelope, the model's text and the audit's output: masked,
 * or withheld (POLICY_DENIED; the tool did run). Every finding (kinds, never values) is in the
 * call's audit events under `details.guardrails`.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.GUARDRAILS })
export class GuardrailHook implements ToolCallHook {
  constructor(private readonly trail: AuditTrail) {}

  // Synchronous: a tool without guardrails, the common case, pays one property read.
  beforeExecute(call: ToolCall): ToolCallStop | undefined {
    const guardrails = call.tool.guardrails;
    if (!guardrails) return undefined;
    const output = guardrails.output;
    if (output) rewriteCallOutput(call, (value) => this.checkOutput(call, output, value));
    // An approved call's input was checked (and masked) when it asked.
    if (!guardrails.input || call.request.approval) return undefined;
    const check = guardrails.input;
    const scan = scanContent(call.input, check, check.action === 'mask');
    if (!scan.found.length) return undefined;
    noteGuardrailFinding(call, { side: 'input', found: scan.found, action: check.action });
    if (check.action === 'mask') replaceCallInput(call, scan.value);
    if (check.action !== 'block') return undefined;
    const envelope = refusal(call, 'input', scan.found, call.request.locale);
    this.recordRefusal(call, scan.found);
    return { envelope };
  }

  private checkOutput(call: ToolCall, check: GuardrailCheck, value: unknown): unknown {
    const scan = scanContent(value, check, check.action === 'mask');
    if (!scan.found.length) return value;
    noteGuardrailFinding(call, { side: 'output', found: scan.found, action: check.action });
    if (check.action === 'block')
      throw new ToolCallFailedError(refusal(call, 'output', scan.found, call.request.locale));
    return scan.value;
  }

  private recordRefusal(call: ToolCall, found: readonly string[]): void {
    this.trail.recordEventually([
      policyDeniedEvent(call, {
        guardrails: [{ side: 'input', found, action: 'block' }],
        reason: reasonText('input', found, 'en'),
      }),
    ]);
  }
}

/** Why a guardrail refused, in the caller's language: which side, which kinds (never the values). */
function reasonText(side: 'input' | 'output', found: readonly string[], locale: Locale): string {
  const kinds = found.join(', ');
  if (locale === 'en')
    return side === 'input'
      ? `the input carries what this tool may not receive (${kinds})`
      : `the result carried what may not be passed on (${kinds}); it was withheld (the tool did run)`;
  return side === 'input'
    ? `输入中含有该工具不得接收的内容（${kinds}）`
    : `结果中含有不得传出的内容（${kinds}），已被拦截（工具已执行）`;
}

function refusal(
  call: ToolCall,
  side: 'input' | 'output',
  found: readonly string[],
  locale: Locale,
): ErrorEnvelope {
  const reason = reasonText(side, found, locale);
  const guardrail = { side, found, action: 'block' };
  return errorEnvelope(
    ErrorCode.POLICY_DENIED,
    locale,
    { rule: `guardrails.${side}`, tool: call.tool.contract.name, reason },
    { guardrail, reason },
  );
}
