import type { ToolCall } from '@toolgate/toolkit';

/**
 * Whether a call's input carries a value in a field its tool marks as classified. The one place
 * that asks: every field marked `sensitive()`, whatever its class (`personal`, `sensitive_personal`,
 * `important_data`): each is personal information or important data under PIPL.
 */
export function sendsClassifiedFields(call: ToolCall): boolean {
  return hasValuesAt(
    call.input,
    call.tool.contract.sensitivePaths.map((f) => f.path),
  );
}

/** Whether `input` holds a value (not null or absent) at one of `paths` (`*`: any element). */
export function hasValuesAt(input: unknown, paths: readonly (readonly string[])[]): boolean {
  return paths.some((path) => hasValueAt(input, path, 0));
}

/** A value (not null or absent) at `path`; `*` stands for every element or value. */
function hasValueAt(value: unknown, path: readonly string[], i: number): boolean {
  if (value === null || value === undefined) return false;
  if (i === path.length) return true;
  if (typeof value !== 'object') return false;
  const key = path[i]!;
  const children = key === '*' ? Object.values(value as object) : [(value as Record<string, unknown>)[key]];
  return children.some((child) => hasValueAt(child, path, i + 1));
}
