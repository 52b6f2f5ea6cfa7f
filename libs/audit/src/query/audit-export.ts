import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { AuditEventRecord } from '../audit-event.js';
import { toApiEvent } from '../chain/event-mapping.js';

const CSV_COLUMNS = [
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
  'actorType',
  'actorId',
  'approverId',
  'status',
  'code',
  'durationMs',
  'input',
  'outputSummary',
  'details',
  'prevHash',
  'hash',
] as const;

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

function csvRow(e: AuditEventRecord): string {
  const v: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    id: e.id,
    tenantId: e.tenantId,
    seq: e.seq,
    occurredAt: e.occurredAt.toISOString(),
    event: e.event,
    callId: e.callId,
    tool: e.tool,
    implementation: e.implementation,
    riskLevel: e.riskLevel,
    agentType: e.agentType,
    sessionId: e.sessionId,
    actorType: e.actor.type,
    actorId: e.actor.id,
    approverId: e.approverId,
    status: e.status,
    code: e.code,
    durationMs: e.durationMs,
    input: e.input,
    outputSummary: e.outputSummary,
    details: e.details,
    prevHash: e.prevHash,
    hash: e.hash,
  };
  return `${CSV_COLUMNS.map((c) => csvCell(v[c])).join(',')}\r\n`;
}

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
  if (format === 'csv') await write(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`);
  for await (const chunk of chunks) {
    if (out.destroyed) break;
    await write(
      chunk.map((e) => (format === 'csv' ? csvRow(e) : `${JSON.stringify(toApiEvent(e))}\n`)).join(''),
    );
    count += chunk.length;
  }
  return count;
}
