import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { HttpMultiplexTransport, type McpReplyWriter } from './http-multiplex-transport.js';
import type { McpCaller } from './mcp-caller.js';

const callerOf = (keyId: string) =>
  ({ principal: { principalId: keyId }, gone: new AbortController().signal }) as unknown as McpCaller;

/** A writer that records what an HTTP reply would have carried. */
function recorder(canStream = true) {
  const out = {
    events: [] as JSONRPCMessage[],
    ended: [] as { responses: JSONRPCMessage[]; batch: boolean }[],
  };
  const writer: McpReplyWriter = {
    canStream,
    event: (m) => out.events.push(m),
    end: (responses, batch) => out.ended.push({ responses, batch }),
  };
  return { out, writer };
}

function setUp(acceptsTasks = false) {
  const transport = new HttpMultiplexTransport(() => acceptsTasks);
  const delivered: JSONRPCMessage[] = [];
  transport.onmessage = (m) => void delivered.push(m);
  return { transport, delivered };
}

const call = (id: string | number, params: Record<string, unknown> = {}): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'noop', ...params },
});

describe('HttpMultiplexTransport', () => {
  it('gives colliding client ids distinct internal ids and restores them on the way back', async () => {
    const { transport, delivered } = setUp();
    const a = recorder();
    const b = recorder();
    transport.deliver([call(1)], false, callerOf('k1'), a.writer);
    transport.deliver([call(1)], false, callerOf('k2'), b.writer);
    const [ia, ib] = delivered.map((m) => (m as { id: number }).id);
    expect(ia).not.toBe(ib);
    expect(transport.callerOf(ib!).principal.principalId).toBe('k2');
    await transport.send({ jsonrpc: '2.0', id: ib!, result: { who: 'b' } });
    await transport.send({ jsonrpc: '2.0', id: ia!, result: { who: 'a' } });
    expect(a.out.ended).toEqual([
      { responses: [{ jsonrpc: '2.0', id: 1, result: { who: 'a' } }], batch: false },
    ]);
    expect(b.out.ended).toEqual([
      { responses: [{ jsonrpc: '2.0', id: 1, result: { who: 'b' } }], batch: false },
    ]);
    expect(() => transport.callerOf(ia!)).toThrow();
  });

  it('answers an exchange of notifications only at once (202) and a batch once all its requests are answered', async () => {
    const { transport, delivered } = setUp();
    const n = recorder();
    transport.deliver(
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }],
      false,
      callerOf('k'),
      n.writer,
    );
    expect(n.out.ended).toEqual([{ responses: [], batch: false }]);
    const r = recorder();
    transport.deliver([call('x'), call('y')], true, callerOf('k'), r.writer);
    const ids = delivered.slice(1).map((m) => (m as { id: number }).id);
    await transport.send({ jsonrpc: '2.0', id: ids[1]!, result: {} });
    expect(r.out.ended).toEqual([]);
    await transport.send({ jsonrpc: '2.0', id: ids[0]!, error: { code: -32602, message: 'no' } });
    expect(r.out.ended[0]!.responses.map((m) => (m as { id: string }).id)).toEqual(['y', 'x']);
    expect(r.out.ended[0]!.batch).toBe(true);
  });

  it('turns the answer into a stream at the first progress notification, when the client accepts one', async () => {
    const { transport, delivered } = setUp();
    const r = recorder(true);
    transport.deliver([call(7)], false, callerOf('k'), r.writer);
    const id = (delivered[0] as { id: number }).id;
    const progress: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 1 },
    };
    await transport.send(progress, { relatedRequestId: id });
    await transport.send({ jsonrpc: '2.0', id, result: {} });
    expect(r.out.events).toEqual([progress, { jsonrpc: '2.0', id: 7, result: {} }]);
    expect(r.out.ended).toEqual([{ responses: [], batch: false }]);

    const json = recorder(false);
    transport.deliver([call(8)], false, callerOf('k'), json.writer);
    const id2 = (delivered[1] as { id: number }).id;
    await transport.send(progress, { relatedRequestId: id2 });
    await transport.send({ jsonrpc: '2.0', id: id2, result: {} });
    expect(json.out.events).toEqual([]);
    expect(json.out.ended[0]!.responses).toHaveLength(1);
  });

  it('cancels only a request of the same key, and ends its answer without a response', async () => {
    const { transport, delivered } = setUp();
    const r = recorder();
    transport.deliver([call(5)], false, callerOf('k1'), r.writer);
    const id = (delivered[0] as { id: number }).id;
    const cancel = (key: string) =>
      transport.deliver(
        [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }],
        false,
        callerOf(key),
        recorder().writer,
      );
    cancel('k2');
    expect(delivered).toHaveLength(1);
    cancel('k1');
    expect(delivered[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: id } });
    expect(r.out.ended).toEqual([{ responses: [], batch: false }]);
    // The late response of the cancelled request goes nowhere.
    await transport.send({ jsonrpc: '2.0', id, result: {} });
    expect(r.out.ended).toHaveLength(1);
  });

  it('drops params.task when no task support is bound, and keeps it when there is', () => {
    const without = setUp(false);
    without.transport.deliver([call(1, { task: { ttl: 1000 } })], false, callerOf('k'), recorder().writer);
    expect((without.delivered[0] as { params: object }).params).not.toHaveProperty('task');
    const withTasks = setUp(true);
    withTasks.transport.deliver([call(1, { task: { ttl: 1000 } })], false, callerOf('k'), recorder().writer);
    expect((withTasks.delivered[0] as { params: object }).params).toHaveProperty('task', { ttl: 1000 });
  });
});
