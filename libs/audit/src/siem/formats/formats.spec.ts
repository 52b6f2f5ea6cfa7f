import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { draftEvent, type AuditEventRecord } from '../../audit-fields.js';
import { cefExtensionEscape, cefHeaderEscape, formatCef } from './cef.js';
import { httpsBody, signatureHeader } from './https-body.js';
import {
  headerField,
  octetCountedFrame,
  sdParamEscape,
  syslogMessage,
  type SyslogOrigin,
} from './syslog-message.js';
import { siemRecord } from './siem-record.js';

/** Text a caller controls, with every character the formats treat specially. */
const HOSTILE = 'a|b\\c=d]e"f\ng\rh [x y="z"] CEF:0|x|y 服务 13812345678 \\=\\|';

function event(over: Partial<AuditEventRecord> = {}): AuditEventRecord {
  return {
    ...draftEvent({
      tenantId: 'acme',
      event: 'finished',
      actor: { type: 'api_key', id: 'key|1=x' },
      occurredAt: new Date('2026-01-02T03:04:05.678Z'),
      tool: 'restart_service',
      status: 'error',
      code: 'UPSTREAM_ERROR',
      callId: 'call-1',
      details: { message: HOSTILE },
      input: { service: HOSTILE },
    }),
    id: '42',
    seq: 7,
    prevHash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
    ...over,
  } as AuditEventRecord;
}

/** A CEF reader written from the format's rules: header fields split on unescaped `|`, then `key=value` pairs. */
function parseCef(line: string): { header: string[]; ext: Record<string, string> } {
  const header: string[] = [];
  let i = 0;
  let field = '';
  while (header.length < 7) {
    const c = line[i++]!;
    if (c === '\\') field += line[i++];
    else if (c === '|') {
      header.push(field);
      field = '';
    } else field += c;
  }
  const rest = line.slice(i);
  const ext: Record<string, string> = {};
  // Keys are where an unescaped `=` follows a word that follows a space (or the start).
  const starts = [...rest.matchAll(/(?:^| )([A-Za-z0-9]+)=/g)].filter((m) => {
    let backslashes = 0;
    for (let j = m.index + m[0].length - 2; j >= 0 && rest[j] === '\\'; j--) backslashes++;
    return backslashes % 2 === 0;
  });
  const unescape = (v: string) =>
    v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
  starts.forEach((m, k) => {
    const from = m.index + m[0].length;
    const to = k + 1 < starts.length ? starts[k + 1]!.index : rest.length;
    ext[m[1]!] = unescape(rest.slice(from, to));
  });
  return { header, ext };
}

const origin: SyslogOrigin = {
  hostname: 'gw 1\nevil',
  appName: 'toolgate',
  procId: '123',
  facility: 13,
  structuredDataId: 'toolgate@32473',
  payload: 'json',
  productVersion: '1',
};

describe('SIEM formats with hostile values', () => {
  it('CEF escapes | and \\ in the header, \\ = and line breaks in extensions, and reads back exactly', () => {
    const line = formatCef(siemRecord(event({ tool: HOSTILE, code: HOSTILE }), 100_000), '1');
    expect(line).not.toMatch(/[\r\n]/);
    const { header, ext } = parseCef(line);
    expect(header[0]).toBe('CEF:0');
    expect(header[4]).toBe('finished');
    expect(header[5]).toBe(`finished ${HOSTILE.replace(/\r\n|[\r\n]/g, ' ')}`);
    expect(header[6]).toBe('5');
    expect(ext.cs4).toBe(HOSTILE);
    expect(ext.reason).toBe(HOSTILE);
    expect(ext.suser).toBe('api_key:key|1=x');
    expect(ext.cn1).toBe('7');
    expect(ext.cs2).toBe('a'.repeat(64));
    expect(ext.cs3).toBe('b'.repeat(64));
    expect(ext.externalId).toBe('acme/7');
    expect(ext.rt).toBe(String(Date.parse('2026-01-02T03:04:05.678Z')));
    expect(cefHeaderEscape('a|b\\c')).toBe('a\\|b\\\\c');
    expect(cefExtensionEscape('a=b\\c\nd|e')).toBe('a\\=b\\\\c\\nd|e');
  });

  it('RFC 5424: header fields stay one token, SD-PARAM values escape " \\ ], the frame counts bytes', () => {
    const r = siemRecord(event({ tool: HOSTILE, code: HOSTILE }), 100_000);
    const message = syslogMessage(r, origin);
    const [priVersion, time, host, app, proc, msgid] = message.split(' ');
    expect(priVersion).toBe('<108>1'); // facility 13 (log audit) * 8 + 4 (warning: an error outcome)
    expect(time).toBe('2026-01-02T03:04:05.678Z');
    expect(host).toBe('gw_1_evil');
    expect([app, proc, msgid]).toEqual(['toolgate', '123', 'finished']);
    const sd = message.slice(message.indexOf('[toolgate@32473 '));
    // Read the SD element as a receiver does: params up to the first unescaped `]`.
    const params: Record<string, string> = {};
    const re = /([^ =\]"]+)="((?:\\.|[^"\\])*)"/y;
    let at = '[toolgate@32473 '.length;
    while (sd[at] !== ']') {
      re.lastIndex = at;
      const m = re.exec(sd)!;
      expect(m, sd.slice(at, at + 40)).not.toBeNull();
      params[m[1]!] = m[2]!.replace(/\\(["\\\]])/g, '$1');
      at = re.lastIndex;
      if (sd[at] === ' ') at++;
    }
    // Control characters have no escape in PARAM-VALUE: spaces there, exact in the MSG.
    const inSd = HOSTILE.replace(/[\r\n]/g, ' ');
    expect(params).toMatchObject({ tenant: 'acme', seq: '7', tool: inSd, code: inSd, hash: 'b'.repeat(64) });
    expect(JSON.parse(sd.slice(at + 2))).toEqual(r);
    const frame = octetCountedFrame(message);
    const space = frame.indexOf(0x20);
    expect(Number(frame.subarray(0, space).toString())).toBe(frame.length - space - 1);
    expect(frame.length - space - 1).toBe(Buffer.byteLength(message));
    expect(sdParamEscape('a"b\\c]d')).toBe('a\\"b\\\\c\\]d');
    expect(headerField('', 10)).toBe('-');
    expect(headerField('x'.repeat(40), 32)).toHaveLength(32);
  });

  it('CEF inside syslog: the message is one line whatever the values', () => {
    const message = syslogMessage(siemRecord(event({ tool: HOSTILE }), 100_000), {
      ...origin,
      payload: 'cef',
    });
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).toContain(' CEF:0|Toolgate|Toolgate Gateway|1|finished|');
  });

  it('every record carries the chain fields; beyond the size limit bulky fields become size + SHA-256', () => {
    const big = event({ input: { blob: 'x'.repeat(20_000) } });
    const whole = siemRecord(big, 100_000);
    const cut = siemRecord(big, 4_096);
    for (const r of [whole, cut])
      expect(r).toMatchObject({
        v: 1,
        tenantId: 'acme',
        seq: 7,
        prevHash: 'a'.repeat(64),
        hash: 'b'.repeat(64),
        event: 'finished',
        occurredAt: '2026-01-02T03:04:05.678Z',
        actor: { type: 'api_key', id: 'key|1=x' },
        tool: 'restart_service',
        status: 'error',
        code: 'UPSTREAM_ERROR',
      });
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(4_096);
    expect(cut.input).toMatchObject({ truncated: true, bytes: JSON.stringify(big.input).length });
    expect(whole.input).toEqual(big.input);
  });

  it('HTTPS: JSON lines or HEC events, and a signature a receiver can check', () => {
    const r = siemRecord(event(), 100_000);
    const body = httpsBody([r, r], 'jsonl', 'gw');
    expect(body.split('\n')).toHaveLength(3);
    expect(JSON.parse(body.split('\n')[0]!)).toEqual(r);
    const hec = JSON.parse(httpsBody([r], 'splunk-hec', 'gw').trim()) as Record<string, unknown>;
    expect(hec).toMatchObject({ host: 'gw', sourcetype: 'toolgate:audit', event: r, time: 1767323045.678 });
    const now = new Date('2026-01-02T00:00:00Z');
    const header = signatureHeader('s3cret', body, now);
    const [, t, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
    expect(mac).toBe(createHmac('sha256', 's3cret').update(`${t}.${body}`).digest('hex'));
  });
});
