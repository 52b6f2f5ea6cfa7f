/** A Date as the `YYYY-MM-DD HH:MM:SS.sss` UTC text both databases store in DATETIME(3) columns. */
export function toSqlDateTime(d: Date): string {
  const iso = d.toISOString();
  // `YYYY-MM-DDTHH:MM:SS.sssZ`; years outside 0000–9999 carry a sign and six digits.
  if (iso.length === 24) return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  return iso.replace('T', ' ').replace('Z', '');
}

/** A DATETIME(3) value read back (mysql2 gives a Date, SQLite the text). */
export function fromSqlDateTime(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v);
  return new Date(s.includes('T') ? (s.endsWith('Z') ? s : `${s}Z`) : `${s.replace(' ', 'T')}Z`);
}
