/**
 * The tighten-only rule as the editor shows it (the gateway enforces it; this only guides input):
 * a binding may shorten a tool's time limit and add approval, never loosen what the tool declares.
 */
import type { ApprovalMode, BindingDiff, BindingTool, CatalogTool, Issue } from '../../api/types';

export const APPROVAL_ORDER: readonly ApprovalMode[] = ['never', 'once', 'always'];

/** Approval modes a binding may pick for a tool: the declared one or stricter; none for L0 tools. */
export function allowedApprovals(tool: CatalogTool): ApprovalMode[] {
  if (tool.risk.level === 'L0') return ['never'];
  return APPROVAL_ORDER.slice(APPROVAL_ORDER.indexOf(tool.approval));
}

/** An entry with only the fields that are set, so equal bindings compare equal. */
export function normalize(entry: BindingTool): BindingTool {
  const out: BindingTool = { name: entry.name };
  if (entry.implementation) out.implementation = entry.implementation;
  if (entry.timeoutMs !== undefined && entry.timeoutMs !== null) out.timeoutMs = entry.timeoutMs;
  if (entry.approval) out.approval = entry.approval;
  return out;
}

const same = (a: BindingTool, b: BindingTool) =>
  JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));

/** What changes from `before` to `after` (the same shape the API answers). */
export function diffTools(before: readonly BindingTool[], after: readonly BindingTool[]): BindingDiff {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  return {
    added: [...now.keys()].filter((n) => !old.has(n)),
    removed: [...old.keys()].filter((n) => !now.has(n)),
    changed: [...now.values()]
      .filter((t) => old.has(t.name) && !same(old.get(t.name)!, t))
      .map((t) => ({ name: t.name, from: normalize(old.get(t.name)!), to: normalize(t) })),
  };
}

export const isEmptyDiff = (d: BindingDiff) => !d.added.length && !d.removed.length && !d.changed.length;

/** True when two tool lists are the same binding. */
export function sameTools(a: readonly BindingTool[], b: readonly BindingTool[]): boolean {
  return a.length === b.length && a.every((t, i) => same(t, b[i]!));
}

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
    .map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.join(', ') : '—';
}
