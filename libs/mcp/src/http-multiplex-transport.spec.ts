import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { HttpMultiplexTransport, type McpReplyWriter } from './http-multiplex-transport.js';
import type { McpCaller } from './mcp-caller.js';
import { checkToolCall } from './tool-call-message.js';

const callerOf = (keyId: string) => ({ principal: { principalId: keyId } }) as unknown as McpCaller;

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
    // In the batch's order, whichever was answered first (ADR 044: a direct call answers at once).
    expect(r.out.ended[0]!.responses.map((m) => (m as { id: string }).id)).toEqual(['x', 'y']);
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

  it('stops only the requests marked for it when the HTTP client goes away', () => {
    const { transport, delivered } = setUp();
    const r = recorder();
    const exchange = transport.deliver([call(1), call(2)], true, callerOf('k'), r.writer);
    const [readOnly, sideEffect] = delivered.map((m) => (m as { id: number }).id);
    transport.stopOnDisconnect(readOnly!);
    transport.clientGone(exchange);
    expect(delivered.slice(2)).toEqual([
      expect.objectContaining({
        method: 'notifications/cancelled',
        params: expect.objectContaining({ requestId: readOnly }),
      }),
    ]);
    expect(transport.callerOf(sideEffect!).principal.principalId).toBe('k');
  });

  it('drops params.task when no task support is bound, and keeps it when there is', () => {
    const without = setUp(false);
    without.transport.deliver([call(1, { task: { ttl: 1000 } })], false, callerOf('k'), recorder().writer);
    expect((without.delivered[0] as { params: object }).params).not.toHaveProperty('task');
    const withTasks = setUp(true);
    withTasks.transport.deliver([call(1, { task: { ttl: 1000 } })], false, callerOf('k'), recorder().writer);
    expect((withTasks.delivered[0] as { params: object }).params).toHaveProperty('task', { ttl: 1000 });
  });

  describe('the direct path of checked tools/call requests (ADR 044)', () => {
    const checkedCall = (id: string | number, name = 'noop') =>
      checkToolCall({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } })!;

    it('answers a synchronous call before deliver returns, in the batch order, beside a Protocol request', async () => {
      const { transport, delivered } = setUp();
      transport.directToolCall = (params) => ({ content: [], structuredContent: { name: params.name } });
      const r = recorder();
      const ping: JSONRPCMessage = { jsonrpc: '2.0', id: 'p', method: 'ping' };
      transport.deliver([ping, checkedCall(7, 'a')], true, callerOf('k'), r.writer);
      // Only ping went to the Protocol; the exchange waits for it.
      expect(delivered.map((m) => (m as { method: string }).method)).toEqual(['ping']);
      expect(r.out.ended).toEqual([]);
      await transport.send({ jsonrpc: '2.0', id: (delivered[0] as { id: number }).id, result: {} });
      expect(r.out.ended[0]!.responses).toEqual([
        { jsonrpc: '2.0', id: 'p', result: {} },
        { jsonrpc: '2.0', id: 7, result: { content: [], structuredContent: { name: 'a' } } },
      ]);
      const single = recorder();
      transport.deliver([checkedCall(8)], false, callerOf('k'), single.writer);
      expect(single.out.ended).toHaveLength(1);
    });

    it('answers what the handler throws as the JSON-RPC error the Protocol would', () => {
      const { transport } = setUp();
      transport.directToolCall = () => {
        throw Object.assign(new Error('Unknown tool: x'), { code: -32602, data: { code: 'TOOL_NOT_FOUND' } });
      };
      const r = recorder();
      transport.deliver([checkedCall(1)], false, callerOf('k'), r.writer);
      expect(r.out.ended[0]!.responses).toEqual([
        {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32602, message: 'Unknown tool: x', data: { code: 'TOOL_NOT_FOUND' } },
        },
      ]);
    });

    it('cancels a pending call on notifications/cancelled of the same key, and on a gone client when asked to', async () => {
      const { transport } = setUp();
      const seen: { aborted: boolean; reason: unknown }[] = [];
      transport.directToolCall = (_params, request) => {
        request.stopWhenClientGone();
        return new Promise((resolve) => {
          request.signal.addEventListener('abort', () => {
            seen.push({ aborted: request.signal.aborted, reason: request.signal.reason });
            resolve({ content: [] });
          });
        });
      };
      const r = recorder();
      transport.deliver([checkedCall('c')], false, callerOf('k1'), r.writer);
      // Another key's cancellation of the same client id reaches nothing.
      transport.deliver(
        [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c' } }],
        false,
        callerOf('k2'),
        recorder().writer,
      );
      expect(seen).toEqual([]);
      transport.deliver(
        [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c', reason: 'user' } }],
        false,
        callerOf('k1'),
        recorder().writer,
      );
      expect(seen).toHaveLength(1);
      await Promise.resolve();
      // Cancelled: answered with nothing (202), and the late result goes nowhere.
      expect(r.out.ended).toEqual([{ responses: [], batch: false }]);
      const gone = recorder();
      const exchange = transport.deliver([checkedCall('d')], false, callerOf('k1'), gone.writer);
      transport.clientGone(exchange);
      expect(seen).toHaveLength(2);
      expect((seen[1]!.reason as DOMException).name).toBe('AbortError');
    });

    it('leaves unchecked tools/call messages and task-augmented ones (tasks served) to the Protocol', () => {
      const { transport, delivered } = setUp(true);
      transport.directToolCall = () => ({ content: [] });
      const withTask = checkToolCall({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'noop', task: { ttl: 1000 } },
      })!;
      transport.deliver([call(1), withTask], true, callerOf('k'), recorder().writer);
      expect(delivered).toHaveLength(2);
    });
  });
});
