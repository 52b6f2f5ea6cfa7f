/** Small display helpers shared by the pages. */

/** A timestamp in the viewer's local time, to the second. */
export function formatTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(language === 'en' ? 'en-GB' : 'zh-CN', { hour12: false });
}

/** A short hash for tables: the first 12 characters. */
export function shortHash(hash: string | null | undefined): string {
  return hash ? `${hash.slice(0, 12)}…` : '—';
}
