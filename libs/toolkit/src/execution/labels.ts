/**
 * The readable form of a tool name, the fallback for labels that are missing or fail.
 * @example humanizeToolName('sync_accounts') // "Sync accounts"
 */
export function humanizeToolName(name: string): string {
  const words = name.split('_').filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Calls a label callback; an exception or an empty string falls back to the humanized name. */
export function labelText(fallbackName: string, render: (() => string | undefined) | undefined): string {
  if (!render) return humanizeToolName(fallbackName);
  try {
    const text = render();
    return typeof text === 'string' && text.trim() ? text : humanizeToolName(fallbackName);
  } catch {
    return humanizeToolName(fallbackName);
  }
}
