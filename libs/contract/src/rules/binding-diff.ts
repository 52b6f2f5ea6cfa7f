import type { ApprovalMode } from './vocabulary.js';

/** One entry of a binding: a tool and the overrides that tighten it. */
export interface BindingTool {
  name: string;
  implementation?: string;
  timeoutMs?: number;
  approval?: ApprovalMode;
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

/** Same fields, same values (entries hold only strings and numbers). */
function sameEntry(a: BindingTool, b: BindingTool): boolean {
  const keysA = Object.keys(a).sort();
  const keysB = Object.keys(b).sort();
  return (
    keysA.length === keysB.length &&
    keysA.every((k, i) => k === keysB[i] && a[k as keyof BindingTool] === b[k as keyof BindingTool])
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
