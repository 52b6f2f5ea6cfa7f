/**
 * The binding editor's helpers around the contract's rules (libs/contract: the tighten-only
 * approval order and the diff, the same functions the gateway enforces with): form entries
 * cleaned before they are compared, and request issues grouped by row.
 */
import { allowedApprovals as approvalsAllowed, diffBindings } from '@toolgate/contract/rules';
import type { ApprovalMode, BindingDiff, BindingTool, CatalogTool, Issue } from '../../api/types';
import { cleanGuardrails, cleanRule } from './policy-form';

/** Approval modes a binding may pick for a tool: the declared one or stricter; none for L0 tools. */
export const allowedApprovals = (tool: CatalogTool): ApprovalMode[] =>
  approvalsAllowed(tool.risk.level, tool.approval);

/** A form entry with only the fields that are filled in, so equal bindings compare equal. */
export function normalize(entry: BindingTool): BindingTool {
  const out: BindingTool = { name: entry.name };
  if (entry.implementation) out.implementation = entry.implementation;
  if (entry.timeoutMs !== undefined && entry.timeoutMs !== null) out.timeoutMs = entry.timeoutMs;
  if (entry.approval) out.approval = entry.approval;
  if (entry.rules?.length) out.rules = entry.rules.map(cleanRule);
  const guardrails = cleanGuardrails(entry.guardrails);
  if (guardrails) out.guardrails = guardrails;
  return out;
}

const same = (a: BindingTool, b: BindingTool) =>
  JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));

/** What changes from `before` to `after`: the gateway's own diff, over the cleaned entries. */
export const diffTools = (before: readonly BindingTool[], after: readonly BindingTool[]): BindingDiff =>
  diffBindings(before.map(normalize), after.map(normalize));

/** True when two tool lists are the same binding. */
export function sameTools(a: readonly BindingTool[], b: readonly BindingTool[]): boolean {
  return a.length === b.length && a.every((t, i) => same(t, b[i]!));
}

/**
 * A refused body's issues with dotted paths: the schema's envelope writes `tools[1].rules[0].mask`,
 * the binding checks `tools.1.rules.0.when`; the editor finds both rows and fields by the latter.
 */
export const dottedIssues = (issues: readonly Issue[]): Issue[] =>
  issues.map((i) => ({ ...i, path: i.path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '') }));

/** Issues with paths like `tools.2.timeoutMs`, grouped by the row they are about. */
export function issuesByRow(issues: readonly Issue[]): Map<number, Issue[]> {
  const rows = new Map<number, Issue[]>();
  for (const issue of issues) {
    const m = /^tools\.(\d+)(?:\.|$)/.exec(issue.path);
    if (!m) continue;
    const i = Number(m[1]);
    rows.set(i, [...(rows.get(i) ?? []), issue]);
  }
  return rows;
}

/** Issues that point at no row (the whole body). */
export const generalIssues = (issues: readonly Issue[]) => issues.filter((i) => !/^tools\.\d+/.test(i.path));

/** An override in words, for diffs: `implementation=sap, timeoutMs=5000`. */
export function describeEntry(entry: BindingTool): string {
  const parts = Object.entries(normalize(entry))
    .filter(([k]) => k !== 'name')
    .map(([k, v]) =>
      k === 'rules' && Array.isArray(v)
        ? `rules=${v.length}`
        : k === 'guardrails' && v && typeof v === 'object'
          ? `guardrails=${Object.keys(v).join('+')}`
          : `${k}=${String(v)}`,
    );
  return parts.length ? parts.join(', ') : '—';
}
