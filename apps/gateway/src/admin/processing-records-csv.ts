import { csvCell } from '@toolgate/audit';
import type { ProcessingRecordView } from '@toolgate/data-protection';

/** The columns of the file, in order: the declaration, where it goes, and what was counted. */
const COLUMNS: readonly [string, (r: ProcessingRecordView) => unknown][] = [
  ['tool', (r) => r.tool],
  ['purpose', (r) => r.purpose],
  ['categories', (r) => r.categories.join('; ')],
  ['recipient', (r) => r.recipient],
  ['region', (r) => r.region],
  ['regionSource', (r) => r.regionSource],
  ['crossBorder', (r) => r.crossBorder],
  ['crossBorderBasis', (r) => r.crossBorderBasis?.basis ?? null],
  ['crossBorderReference', (r) => r.crossBorderBasis?.reference ?? null],
  ['legalBasis', (r) => r.legalBasis],
  ['calls', (r) => r.calls],
  ['lastCountedAt', (r) => r.lastCountedAt],
];

/**
 * A tenant's processing records (PIPL 第55–56条) as CSV: UTF-8 with a BOM and CRLF, which Excel
 * opens with Chinese text intact; each cell through the audit export's rule (a cell starting with
 * `= + - @`, a tab or CR is prefixed with `'`, so a purpose written as a formula stays text).
 */
export function processingRecordsCsv(records: readonly ProcessingRecordView[]): string {
  const header = COLUMNS.map(([name]) => name).join(',');
  const rows = records.map((r) => COLUMNS.map(([, cell]) => csvCell(cell(r))).join(','));
  return `\uFEFF${[header, ...rows].join('\r\n')}\r\n`;
}
