import { formatCef } from './cef.js';
import type { SiemRecord } from './siem-record.js';

/** RFC 5424 §6.2.1 severities used here. */
const SEVERITY = { warning: 4, notice: 5, info: 6 } as const;

/** What every message of a sink states the same way. */
export interface SyslogOrigin {
  readonly hostname: string;
  readonly appName: string;
  readonly procId: string;
  readonly facility: number;
  readonly structuredDataId: string;
  readonly payload: 'json' | 'cef';
  readonly productVersion: string;
}

/**
 * A header field of RFC 5424 (HOSTNAME, APP-NAME, PROCID, MSGID): PRINTUSASCII (33-126) only, at
 * most `max` characters, `-` (NILVALUE) when empty. Anything else is replaced, never passed through:
 * a space would end the field early and shift every field after it.
 */
export function headerField(value: string | null | undefined, max: number): string {
  const clean = (value ?? '').replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return clean || '-';
}

/**
 * PARAM-VALUE of RFC 5424 §6.3.3: `"`, `\` and `]` escaped with `\`; UTF-8 otherwise as it is,
 * but for control characters, which the RFC has no escape for and receivers rewrite (rsyslog:
 * `#012`): they become spaces here. The MSG carries every value exactly.
 */
export function sdParamEscape(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\x00-\x1f\x7f]/g, ' ').replace(/["\\\]]/g, (c) => `\\${c}`);
}

function severityOf(r: SiemRecord): number {
  if (r.event === 'access_denied' || r.status === 'error' || r.event === 'interrupted')
    return SEVERITY.warning;
  if (r.event.startsWith('approval_')) return SEVERITY.notice;
  return SEVERITY.info;
}

/**
 * One RFC 5424 message: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD] MSG`. MSGID is the
 * event type; the structured data element carries the chain fields (so a receiver that keeps
 * only SD still has them), the MSG the record as JSON or CEF. The MSG has no BOM: both payloads
 * are UTF-8 (MSG-ANY), and a BOM in front of JSON breaks most parsers.
 */
export function syslogMessage(r: SiemRecord, o: SyslogOrigin): string {
  const pri = o.facility * 8 + severityOf(r);
  const params: [string, string | number | null | undefined][] = [
    ['tenant', r.tenantId],
    ['seq', r.seq],
    ['prevHash', r.prevHash],
    ['hash', r.hash],
    ['event', r.event],
    ['actor', `${r.actor.type}:${r.actor.id}`],
    ['tool', r.tool],
    ['status', r.status],
    ['code', r.code],
  ];
  const sd = params
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}="${sdParamEscape(String(v))}"`)
    .join(' ');
  const msg = o.payload === 'cef' ? formatCef(r, o.productVersion) : JSON.stringify(r);
  return [
    `<${pri}>1`,
    r.occurredAt,
    headerField(o.hostname, 255),
    headerField(o.appName, 48),
    headerField(o.procId, 128),
    headerField(r.event, 32),
    `[${o.structuredDataId} ${sd}]`,
    msg,
  ].join(' ');
}

/** RFC 6587 §3.4.1 / RFC 5425 §4.3 octet counting: `MSG-LEN SP SYSLOG-MSG`, the length in bytes. */
export function octetCountedFrame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}
