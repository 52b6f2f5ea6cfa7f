import { CallToolRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkToolCall } from './tool-call-message.js';

const call = (extra: Record<string, unknown> = {}, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'noop', arguments: { a: 1 }, ...params },
  ...extra,
});

describe('checkToolCall', () => {
  it('accepts a tools/call both the JSON-RPC and the tools/call schemas accept, as they parse it', () => {
    const message = call({}, { _meta: { progressToken: 3, traceparent: 'x' } });
    const checked = checkToolCall(message);
    expect(checked).toEqual(JSONRPCMessageSchema.parse(message));
    expect(checked!.params).toEqual(CallToolRequestSchema.parse(message).params);
  });

  it.each([
    ['another method', { method: 'tools/list' }, {}],
    ['no params', { params: undefined }, {}],
    ['a key JSON-RPC does not know', { extra: true }, {}],
    ['a fractional id', { id: 1.5 }, {}],
    ['a wrong jsonrpc', { jsonrpc: '1.0' }, {}],
    ['a name that is not a string', {}, { name: 3 }],
    ['arguments that are not an object', {}, { arguments: [1] }],
    ['a malformed progress token', {}, { _meta: { progressToken: 1.5 } }],
  ])('leaves %s to the usual checks', (_label, extra, params) => {
    expect(checkToolCall(call(extra, params))).toBeUndefined();
  });

  it('answers undefined for what is not an object', () => {
    for (const value of [null, undefined, 3, 'tools/call', []]) expect(checkToolCall(value)).toBeUndefined();
  });
});
