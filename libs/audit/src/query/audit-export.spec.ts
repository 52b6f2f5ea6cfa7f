import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { csvCell, outcomeOf, writeExport } from './audit-export.js';

describe('csvCell', () => {
  it.each([
    ['nothing for null', null, ''],
    ['nothing for undefined', undefined, ''],
    ['a plain word as is', 'read_logs', 'read_logs'],
    ['a number as is', 42, '42'],
    ['Chinese text as is', '滚动发布后内存泄漏', '滚动发布后内存泄漏'],
    ['a comma quoted', 'a,b', '"a,b"'],
    ['a semicolon quoted (semicolon-locale Excel splits on it)', 'a;b', '"a;b"'],
    ['a lone semicolon quoted', ';', '";"'],
    ['a quote doubled and quoted', 'say "hi"', '"say ""hi"""'],
    ['a line feed quoted', 'a\nb', '"a\nb"'],
    ['a carriage return quoted', 'a\rb', '"a\rb"'],
    ['CRLF quoted', 'a\r\nb', '"a\r\nb"'],
    ['a formula defused', '=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['a plus formula defused', '+1', "'+1"],
    ['a minus formula defused', '-1', "'-1"],
    ['an at formula defused', '@cmd', "'@cmd"],
    ['a leading tab defused', '\tx', "'\tx"],
    ['a formula with a semicolon defused and quoted', '=IF(A1;1;2)', `"'=IF(A1;1;2)"`],
    ['a formula with a comma defused and quoted', '=HYPERLINK("x",1)', `"'=HYPERLINK(""x"",1)"`],
    ['a leading CR defused and quoted', '\r=1', `"'\r=1"`],
    ['an object as quoted JSON', { a: 1, b: 'x;y' }, '"{""a"":1,""b"":""x;y""}"'],
    ['an array as quoted JSON', [1, 2], '"[1,2]"'],
  ])('%s', (_name, value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });
});

describe('writeExport as CSV', () => {
  const event: AuditEventRecord = {
    ...draftEvent({
      tenantId: 'acme',
      event: 'finished',
      callId: 'c1',
      actor: { type: 'api_key', id: 'k1' },
      approverId: 'u2',
      initiatorId: 'k0',
      bindingVersion: 3,
      definitionHash: 'd'.repeat(64),
      input: { q: 'a,b' },
      status: 'ok',
      durationMs: 5,
      occurredAt: new Date('2026-11-30T01:02:03.004Z'),
    }),
    id: '42',
    seq: 7,
    prevHash: 'p',
    hash: 'h',
  };

  it('writes the published columns, the actor as two cells, the v1.8 ones, then the outcome', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await writeExport(
      out,
      'csv',
      (async function* () {
        yield [event];
      })(),
    );
    expect(text.split('\r\n')).toEqual([
      '\uFEFFid,tenantId,seq,occurredAt,event,callId,tool,implementation,riskLevel,agentType,sessionId,' +
        'actorType,actorId,approverId,status,code,durationMs,input,outputSummary,details,prevHash,hash,' +
        'initiatorId,bindingVersion,definitionHash,outcome',
      `42,acme,7,2026-11-30T01:02:03.004Z,finished,c1,,,,,,api_key,k1,u2,ok,,5,"{""q"":""a,b""}",,,p,h,k0,3,${'d'.repeat(64)},success`,
      '',
    ]);
  });

  it('reads the outcome from details.outcome, else from the status', () => {
    expect(outcomeOf({ status: null, details: { outcome: 'failure' } })).toBe('failure');
    expect(outcomeOf({ status: 'ok', details: { outcome: 'success' } })).toBe('success');
    expect(outcomeOf({ status: 'error', details: null })).toBe('failure');
    expect(outcomeOf({ status: 'ok', details: null })).toBe('success');
    // An admin change's event commits with the change: no status, no outcome, a success.
    expect(outcomeOf({ status: null, details: { keyId: 'k' } })).toBe('success');
  });
});
