import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkModernMessage, decodeHeader, unsupportedVersion } from './modern-request.js';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (params: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'noop', arguments: {}, _meta: meta, ...params },
});
const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

describe('2026-07-28 request checks', () => {
  it('lets a request whose headers mirror its body through', () => {
    expect(
      checkModernMessage(call({}), '2026-07-28', { method: 'tools/call', name: 'noop' }),
    ).toBeUndefined();
    expect(
      checkModernMessage(call({ name: '查询' }), '2026-07-28', { method: 'tools/call', name: b64('查询') }),
    ).toBeUndefined();
  });

  it.each([
    ['no Mcp-Method', {}, { name: 'noop' }, 400, -32020],
    ['another Mcp-Method', {}, { method: 'tools/list', name: 'noop' }, 400, -32020],
    ['no Mcp-Name', {}, { method: 'tools/call' }, 400, -32020],
    ['another Mcp-Name', {}, { method: 'tools/call', name: 'other' }, 400, -32020],
    ['two Mcp-Method headers', {}, { method: ['tools/call', 'tools/call'], name: 'noop' }, 400, -32020],
    ['no _meta', { _meta: undefined }, { method: 'tools/call', name: 'noop' }, 400, -32602],
    [
      'no clientCapabilities',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      { method: 'tools/call', name: 'noop' },
      400,
      -32602,
    ],
    [
      'another version in _meta',
      { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
      { method: 'tools/call', name: 'noop' },
      400,
      -32020,
    ],
  ])('refuses %s', (_what, params, headers, status, code) => {
    expect(checkModernMessage(call(params), '2026-07-28', headers)).toMatchObject({ status, code });
  });

  it('answers 404 -32601 to methods the revision removed or this server does not serve', () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'tasks/get', 'prompts/list'])
      expect(
        checkModernMessage({ jsonrpc: '2.0', id: 2, method, params: { _meta: meta } }, '2026-07-28', {
          method,
        }),
      ).toMatchObject({ status: 404, code: -32601 });
  });

  it('passes notifications (the revision sets no header rules for them)', () => {
    expect(
      checkModernMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, '2026-07-28', {}),
    ).toBeUndefined();
  });

  it('decodes the Base64 sentinel exactly, and nothing malformed', () => {
    expect(decodeHeader('plain')).toBe('plain');
    expect(decodeHeader(b64('Hello, 世界'))).toBe('Hello, 世界');
    expect(decodeHeader('=?base64?not base64!?=')).toBeUndefined();
    expect(decodeHeader('=?base64?YQ?=')).toBeUndefined(); // unpadded
    expect(decodeHeader(undefined)).toBeUndefined();
  });

  it('names the versions it speaks when it refuses one', () => {
    expect(unsupportedVersion('1999-01-01')).toMatchObject({
      status: 400,
      code: -32022,
      data: { requested: '1999-01-01', supported: expect.arrayContaining(['2026-07-28', '2025-06-18']) },
    });
  });
});
