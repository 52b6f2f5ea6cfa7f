import type { ApprovalMode, PiClass } from './vocabulary.js';

/** What a matching rule does to a call (issue 26). */
export type RuleOutcome = 'allow' | 'deny' | 'require_approval' | 'mask' | 'limit';

/**
 * A `mask` rule's fields: paths (dot-separated, `*` for every array element or record value) into
 * the input, redacted before the tool runs, and into the result, redacted before it goes back.
 */
export interface RuleMask {
  input?: string[];
  output?: string[];
  /** How the fields are masked: `personal` keeps a partial mask (`138****5678`); otherwise sealed. */
  piClass?: PiClass;
}

/** A `limit` rule's bucket: at most `max` matching calls per window, per key or for the tenant. */
export interface RuleLimit {
  max: number;
  per: 'minute' | 'hour' | 'day';
  scope: 'key' | 'tenant';
}

/**
 * One rule on a bound tool's calls: `when` is a CEL expression over `input`, `principal`, `tool`,
 * `now`, `face` and `run`; the first rule (in written order) whose `when` is true decides.
 */
export interface ToolRule {
  id: string;
  when: string;
  then: RuleOutcome;
  /** Shown to the agent when the rule denies: both languages. */
  reason?: { en: string; zh: string };
  /** require_approval: how many approvers must approve (default 1). */
  approvers?: number;
  /** require_approval: how long the approval waits (ms); never longer than the platform's expiry. */
  expiresInMs?: number;
  /** require_approval: only members of this approver group (tenant `approvals.groups`) may decide. */
  approverGroup?: string;
  /** mask: the fields redacted. */
  mask?: RuleMask;
  /** limit: the quota bucket matching calls count against. */
  limit?: RuleLimit;
}

/** The personal-data patterns a content guardrail looks for (the audit redactor's value patterns). */
export type GuardrailPii = 'cn_id' | 'mobile' | 'bank_card' | 'email';

/**
 * One side of a tool's content guardrails (issue 26, ADR 045): what to look for and what to do when
 * found. `mask` replaces what was found, `block` refuses (input: the tool does not run; output: the
 * result is withheld), `require_approval` (input only) parks the call for a person.
 */
export interface GuardrailCheck {
  pii?: GuardrailPii[];
  secrets?: boolean;
  /** Instruction-like text (a prompt-injection heuristic); output only. */
  injection?: boolean;
  action: 'mask' | 'block' | 'require_approval';
}

/** A bound tool's content guardrails: on the input before it runs, on the result before it goes back. */
export interface ToolGuardrails {
  input?: GuardrailCheck;
  output?: GuardrailCheck;
}

/** One entry of a binding: a tool, the overrides that tighten it, its rules and its guardrails. */
export interface BindingTool {
  name: string;
  implementation?: string;
  timeoutMs?: number;
  approval?: ApprovalMode;
  rules?: ToolRule[];
  guardrails?: ToolGuardrails;
}

/** What a change does to one agent type's binding: tools added, removed, and changed (from → to). */
export interface BindingDiff {
  added: string[];
  removed: string[];
  changed: { name: string; from: BindingTool; to: BindingTool }[];
}

/** The entry with only the fields that are set, so equal bindings compare equal. */
export function withoutUnsetFields(entry: BindingTool): BindingTool {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as BindingTool;
}

/** JSON with object keys sorted, so a rule written in another key order compares equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
      : v,
  );
}

/** Same fields, same values (strings and numbers; rules and guardrails compare by their JSON). */
function sameEntry(a: BindingTool, b: BindingTool): boolean {
  const keysA = Object.keys(a).sort();
  const keysB = Object.keys(b).sort();
  const same = (k: keyof BindingTool) =>
    k === 'rules' || k === 'guardrails' ? canonical(a[k]) === canonical(b[k]) : a[k] === b[k];
  return (
    keysA.length === keysB.length && keysA.every((k, i) => k === keysB[i] && same(k as keyof BindingTool))
  );
}

/**
 * What changes from `before` to `after`, as the binding history, the preview and the
 * `binding_changed` audit event show it; entries in `changed` are compared without unset fields.
 */
export function diffBindings(before: readonly BindingTool[], after: readonly BindingTool[]): BindingDiff {
  const old = new Map(before.map((t) => [t.name, withoutUnsetFields(t)]));
  const now = new Map(after.map((t) => [t.name, withoutUnsetFields(t)]));
  return {
    added: [...now.keys()].filter((n) => !old.has(n)),
    removed: [...old.keys()].filter((n) => !now.has(n)),
    changed: [...now.entries()]
      .filter(([n, t]) => old.has(n) && !sameEntry(old.get(n)!, t))
      .map(([name, to]) => ({ name, from: old.get(name)!, to })),
  };
}

export const isEmptyDiff = (d: BindingDiff): boolean =>
  !d.added.length && !d.removed.length && !d.changed.length;
