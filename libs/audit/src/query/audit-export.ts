import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import { AUDIT_FIELDS, type AuditEventRecord } from '../audit-fields.js';
import { CODECS, propertyOf } from '../field-codecs.js';
import { toApiEvent } from '../chain/event-mapping.js';

/**
 * The export's fields in its published column order (spreadsheets and scripts key on it, so it is
 * kept as it was first shipped, and new columns go at the end); how each is written comes from the
 * field table. The actor spans two columns, `actorType` and `actorId`.
 */
const CSV_FIELDS = [
  'id',
  'tenantId',
  'seq',
  'occurredAt',
  'event',
  'callId',
  'tool',
  'implementation',
  'riskLevel',
  'agentType',
  'sessionId',
  'actor',
  'approverId',
  'status',
  'code',
  'durationMs',
  'input',
  'outputSummary',
  'details',
  'prevHash',
  'hash',
  // v1.8: who started the call, and which binding and tool definition it ran under.
  'initiatorId',
  'bindingVersion',
  'definitionHash',
] as const satisfies readonly (keyof AuditEventRecord)[];

/**
 * v1.9 (ADR 039): the outcome of every event as its own column, for 等保 8.1.4.3 b) — an event's
 * `details.outcome` (sign-ins, administrative acts) or, for the rest, its status (`ok` → success,
 * `error` → failure). An administrative change without either committed with its event: success.
 */
export function outcomeOf(e: Pick<AuditEventRecord, 'status' | 'details'>): 'success' | 'failure' {
  const stated = (e.details as { outcome?: unknown } | null)?.outcome;
  if (stated === 'success' || stated === 'failure') return stated;
  return e.status === 'error' ? 'failure' : 'success';
}

const CSV_HEADER = [
  ...CSV_FIELDS.flatMap((name) => {
    const { columns } = AUDIT_FIELDS[name];
    return columns.length > 1 ? columns.map(propertyOf) : [name];
  }),
  'outcome',
].join(',');

/**
 * One CSV cell: formula-looking text is defused so Excel shows it as text, and a cell holding a
 * separator, a quote or a line break is quoted. `;` counts as a separator because Excel in
 * locales with a decimal comma (de-DE, fr-FR, ...) splits rows on `;`, not `,`.
 *
 * @example csvCell('a;b') // '"a;b"'
 * @example csvCell('=SUM(A1)') // "'=SUM(A1)"
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const CSV_WRITERS = CSV_FIELDS.map((name) => ({ name, cells: CODECS[AUDIT_FIELDS[name].codec].cells }));

function csvRow(e: AuditEventRecord): string {
  const cells = [...CSV_WRITERS.flatMap((w) => w.cells(e[w.name])), outcomeOf(e)];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Rows formatted per write: a few milliseconds of work, then other requests get a turn. */
const ROWS_PER_WRITE = 50;

/**
 * Streams events to `out` as CSV (UTF-8 with BOM and CRLF, which Excel opens with Chinese text
 * intact) or JSON Lines, honouring backpressure: memory stays constant whatever the export size.
 */
export async function writeExport(
  out: Writable,
  format: 'csv' | 'jsonl',
  chunks: AsyncIterable<AuditEventRecord[]>,
): Promise<number> {
  let count = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'csv') await write(`\uFEFF${CSV_HEADER}\r\n`);
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += ROWS_PER_WRITE) {
      if (out.destroyed) return count;
      const rows = chunk.slice(at, at + ROWS_PER_WRITE);
      await write(
        rows.map((e) => (format === 'csv' ? csvRow(e) : `${JSON.stringify(toApiEvent(e))}\n`)).join(''),
      );
      count += rows.length;
      // Formatting is synchronous: other requests get the event loop between slices.
      await setImmediate();
    }
  }
  return count;
}
