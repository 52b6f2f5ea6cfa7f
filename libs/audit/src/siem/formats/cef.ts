import type { SiemRecord } from './siem-record.js';

/** CEF header fields: `\` and `|` escaped; a header may not span lines, so line breaks become spaces. */
export function cefHeaderEscape(value: string): string {
  return value.replace(/[\\|]/g, (c) => `\\${c}`).replace(/\r\n|[\r\n]/g, ' ');
}

/** CEF extension values: `\`, `=` escaped, line breaks as `\n` / `\r` (a `|` needs nothing here). */
export function cefExtensionEscape(value: string): string {
  return value.replace(/[\\=\r\n]/g, (c) => (c === '\r' ? '\\r' : c === '\n' ? '\\n' : `\\${c}`));
}

/** CEF severity (0-10) of an event: refusals and failures above the ordinary. */
export function cefSeverity(r: SiemRecord): number {
  if (r.event === 'access_denied') return 7;
  if (r.status === 'error' || r.event === 'interrupted') return 5;
  if (r.event.startsWith('approval_')) return 3;
  return r.tool === null ? 4 : 2; // no tool: an admin or sign-in event
}

/**
 * An event as one ArcSight CEF line (`CEF:0|Vendor|Product|Version|SignatureID|Name|Severity|Ext`).
 * Signature id = event type. The chain fields go in the standard keys where one fits (`rt`, `act`,
 * `suser`, `duser`, `outcome`, `reason`, `externalId`) and in labelled custom fields otherwise
 * (`cs1` tenant, `cs2` prevHash, `cs3` hash, `cs4` tool, `cs5` call id, `cs6` agent type, `cn1`
 * seq, `cn2` duration). Every value is escaped: any of it may come from a caller.
 */
export function formatCef(r: SiemRecord, productVersion: string): string {
  const name = r.tool ? `${r.event} ${r.tool}` : r.event;
  const header = [
    'CEF:0',
    'Toolgate',
    'Toolgate Gateway',
    productVersion,
    r.event,
    name,
    String(cefSeverity(r)),
  ]
    .map((field, i) => (i === 0 ? field : cefHeaderEscape(field)))
    .join('|');
  const ext: [string, string | number | null | undefined][] = [
    ['rt', Date.parse(r.occurredAt)],
    ['externalId', `${r.tenantId}/${r.seq}`],
    ['act', r.event],
    ['suser', `${r.actor.type}:${r.actor.id}`],
    ['duser', r.approver?.id],
    ['outcome', r.status],
    ['reason', r.code],
    ['cs1Label', 'tenant'],
    ['cs1', r.tenantId],
    ['cn1Label', 'seq'],
    ['cn1', r.seq],
    ['cs2Label', 'prevHash'],
    ['cs2', r.prevHash],
    ['cs3Label', 'hash'],
    ['cs3', r.hash],
    ['cs4Label', 'tool'],
    ['cs4', r.tool],
    ['cs5Label', 'callId'],
    ['cs5', r.callId],
    ['cs6Label', 'agentType'],
    ['cs6', r.agentType],
    ['cn2Label', 'durationMs'],
    ['cn2', r.durationMs],
  ];
  const extension = ext
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${cefExtensionEscape(String(v))}`)
    .join(' ');
  return `${header}|${extension}`;
}
