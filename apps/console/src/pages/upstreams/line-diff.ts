/**
 * A side-by-side line diff (longest common subsequence), enough to review what an upstream changed
 * in a tool's description or JSON Schema without a diff package in the bundle.
 */

/** One side of a row: a line and whether it is only on this side. */
export interface DiffCell {
  readonly text: string;
  readonly changed: boolean;
}

/** A row of the side-by-side view; a side is null where the other one has an extra line. */
export interface DiffRow {
  readonly left: DiffCell | null;
  readonly right: DiffCell | null;
}

/**
 * Past this many line pairs the LCS table would cost too much in a browser tab; the diff then
 * shows every line as changed, which is still correct, only less precise.
 */
const MAX_CELLS = 1_000_000;

type Op = { kind: 'same' | 'del' | 'add'; text: string };

function operations(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > MAX_CELLS)
    return [
      ...a.map((text) => ({ kind: 'del' as const, text })),
      ...b.map((text) => ({ kind: 'add' as const, text })),
    ];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) ops.push({ kind: 'del', text: a[i++]! });
    else ops.push({ kind: 'add', text: b[j++]! });
  }
  while (i < a.length) ops.push({ kind: 'del', text: a[i++]! });
  while (j < b.length) ops.push({ kind: 'add', text: b[j++]! });
  return ops;
}

/** Rows pairing the old text (left) with the new one (right); a replaced block sits side by side. */
export function sideBySide(before: string, after: string): DiffRow[] {
  const ops = operations(before.split('\n'), after.split('\n'));
  const rows: DiffRow[] = [];
  let k = 0;
  while (k < ops.length) {
    const op = ops[k]!;
    if (op.kind === 'same') {
      rows.push({ left: { text: op.text, changed: false }, right: { text: op.text, changed: false } });
      k++;
      continue;
    }
    const dels: string[] = [];
    const adds: string[] = [];
    while (k < ops.length && ops[k]!.kind !== 'same') {
      const o = ops[k++]!;
      (o.kind === 'del' ? dels : adds).push(o.text);
    }
    for (let n = 0; n < Math.max(dels.length, adds.length); n++)
      rows.push({
        left: n < dels.length ? { text: dels[n]!, changed: true } : null,
        right: n < adds.length ? { text: adds[n]!, changed: true } : null,
      });
  }
  return rows;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/**
 * A field of a definition as text: strings as they are, anything else as JSON with sorted keys, so
 * a server that only reorders keys shows no difference (the fingerprint ignores key order too).
 */
export function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(sortedKeys(value), null, 2);
}

/**
 * The value a changed-field name points at in a definition: a top-level field (`description`) or a
 * part of the call plan (`callPlan.method`, `callPlan.parameters`).
 */
export function fieldAt(definition: object, field: string): unknown {
  let value: unknown = definition;
  for (const key of field.split('.'))
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}
