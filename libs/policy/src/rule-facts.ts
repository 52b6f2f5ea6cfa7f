import { runContextOf } from '@toolgate/audit';
import type { CallPrincipal, EffectiveTool, ToolCall } from '@toolgate/toolkit';
import type { RuleFacts } from './rule-compiler.js';

/**
 * `principal` as rules read it: every field present (empty when unknown), so a rule never fails on
 * a missing key. `person` is the signed-in person behind the call (the caller, or who started it).
 */
export function principalFacts(
  principal: CallPrincipal | null,
  initiator: CallPrincipal | null | undefined,
  agentType: string | null,
): Record<string, unknown> {
  const person = [principal, initiator].find((p) => p?.principalType === 'user');
  return {
    type: principal?.principalType ?? 'system',
    id: principal?.principalId ?? 'system',
    keyId: principal?.principalType === 'api_key' ? principal.principalId : '',
    person: person?.principalId ?? '',
    role: principal?.role ?? '',
    name: principal?.name ?? '',
    agentType: agentType ?? '',
  };
}

/** Each bound tool's facts, made once: an EffectiveTool is a read-only snapshot of its binding. */
const TOOL_FACTS = new WeakMap<EffectiveTool, Readonly<Record<string, unknown>>>();

/** `tool` as rules read it: name, risk level, data domains, effective approval mode. */
export function toolFacts(tool: EffectiveTool): Readonly<Record<string, unknown>> {
  let facts = TOOL_FACTS.get(tool);
  if (!facts) {
    const c = tool.contract;
    facts = Object.freeze({
      name: c.name,
      risk: c.risk.level,
      dataDomains: Object.freeze([...c.risk.dataDomains]),
      approval: tool.approval,
    });
    TOOL_FACTS.set(tool, facts);
  }
  return facts;
}

/** What a call's rules read: its validated input, who, which tool, when, which face and run. */
export function callFacts(call: ToolCall, now: Date = new Date()): RuleFacts {
  const r = call.request;
  const run = runContextOf(call);
  return {
    input: call.input ?? null,
    principal: principalFacts(r.principal, r.initiator, r.agentType),
    tool: toolFacts(call.tool),
    now,
    face: r.face ?? (run ? 'run' : 'internal'),
    run: run ? { id: run.runId, step: run.step } : { id: '', step: 0 },
  };
}

/** The facts of a listing: the call's own fields are empty (rules that read them are not decided here). */
export function listingFacts(
  principal: CallPrincipal,
  agentType: string,
  tool: EffectiveTool,
  now: Date = new Date(),
): RuleFacts {
  return {
    input: null,
    principal: principalFacts(principal, principal, agentType),
    tool: toolFacts(tool),
    now,
    face: '',
    run: { id: '', step: 0 },
  };
}
