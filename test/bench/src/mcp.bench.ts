import { makeConfigDir } from '../../support/config-dir.js';
import {
  LOAD_CPU,
  measure,
  medianRun,
  printTable,
  SERVER_CPU,
  startPinned,
  type Run,
  runRow,
} from './bench-support.js';
import { BENCH_TENANT_YAML } from './bench-tools.js';
import { BENCH_WIDE_TENANT_YAML, WIDE_TOOL_COUNT } from './mcp-bench-tools.js';

const ROUNDS = 3;
const CONNECTIONS = 64;

/** What a Streamable HTTP client sends with every POST. */
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/**
 * Sends the load's request once and checks the answer is a success, not an error at 200 (a JSON-RPC
 * error, an `isError` result or an error envelope): autocannon counts only HTTP statuses, and a
 * benchmark of error answers would measure nothing.
 */
async function expectSuccess(
  t: { name: string; url: string; body: string; headers: Record<string, string> },
  check: (answer: any) => boolean,
): Promise<void> {
  const res = await fetch(t.url, { method: 'POST', body: t.body, headers: t.headers });
  const text = await res.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (res.status !== 200 || !check(answer))
    throw new Error(`${t.name} answered ${res.status} ${text.slice(0, 300)}: not what the load measures`);
}

/** An SSE answer carries its JSON-RPC message in a `data:` line; the SDK example answers that way. */
function sseOrJson(text: string): unknown {
  const data = text.split('\n').find((l) => l.startsWith('data: '));
  return JSON.parse(data ? data.slice(6) : text);
}

/**
 * MCP `tools/call` of the L0 no-op at c=64 against (a) Toolgate's own REST invoke of the same tool
 * in the same server and (b) the SDK's stateless Streamable HTTP example serving the same tool
 * (a new McpServer + transport per request). Alternating rounds, medians, servers on one core and
 * autocannon on the other, as in the REST section. Then `tools/list` latency for an agent type
 * with 500 bound tools (one connection: the p99 of a request on its own).
 */
export async function mcpThroughput(
  env: Record<string, string>,
  durationS: number,
): Promise<Record<string, Run>> {
  const configDir = makeConfigDir({ bench: BENCH_TENANT_YAML, benchwide: BENCH_WIDE_TENANT_YAML });
  const gateway = await startPinned<{ port: number; agentKey: string; wideKey: string }>(
    'bench-server.js',
    SERVER_CPU,
    { ...env, TOOLGATE_CONFIG_DIR: configDir, BENCH_WIDE_TOOLS: 'on' },
  );
  const sdk = await startPinned<{ port: number }>('sdk-stateless-mcp-server.js', SERVER_CPU, {});
  const base = `http://127.0.0.1:${gateway.info.port}`;
  const auth = { authorization: `Bearer ${gateway.info.agentKey}` };
  const call = rpc('tools/call', { name: 'bench_noop', arguments: {} });
  const targets = [
    {
      name: 'mcp',
      url: `${base}/mcp/bench`,
      body: call,
      headers: { ...MCP_HEADERS, ...auth },
      pid: gateway.pid,
    },
    {
      name: 'rest',
      url: `${base}/v1/agents/bench/tools/bench_noop/invoke`,
      body: JSON.stringify({ input: {} }),
      headers: { 'content-type': 'application/json', ...auth },
      pid: gateway.pid,
    },
    {
      name: 'sdk',
      url: `http://127.0.0.1:${sdk.info.port}/mcp`,
      body: call,
      headers: MCP_HEADERS,
      pid: sdk.pid,
    },
  ];
  const runs: Record<string, Run[]> = {};
  let list: Run | undefined;
  try {
    const okCall = (a: any) => a?.result?.structuredContent?.ok === true && !a.result.isError;
    await expectSuccess(targets[0]!, okCall);
    await expectSuccess(targets[1]!, (a) => a?.status === 'ok');
    const sdkAnswer = await fetch(targets[2]!.url, { method: 'POST', body: call, headers: MCP_HEADERS });
    if (!okCall(sseOrJson(await sdkAnswer.text())))
      throw new Error('the SDK example did not answer the call');
    const wideHeaders = { ...MCP_HEADERS, authorization: `Bearer ${gateway.info.wideKey}` };
    await expectSuccess(
      { name: 'tools/list', url: `${base}/mcp/wide`, body: rpc('tools/list', {}), headers: wideHeaders },
      (a) => (a?.result?.tools?.length ?? 0) >= WIDE_TOOL_COUNT,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) (runs[t.name] ??= []).push(await measure(t, CONNECTIONS, durationS));
    }
    list = await measure(
      {
        url: `${base}/mcp/wide`,
        body: rpc('tools/list', {}),
        headers: { ...MCP_HEADERS, authorization: `Bearer ${gateway.info.wideKey}` },
        pid: gateway.pid,
      },
      1,
      durationS,
    );
  } finally {
    await gateway.stop();
    await sdk.stop();
  }
  const results: Record<string, Run> = {};
  for (const [name, r] of Object.entries(runs)) results[name] = medianRun(r);
  const m = results.mcp!;
  printTable(
    `MCP tools/call of the L0 no-op, c=${CONNECTIONS}: median of ${ROUNDS} alternating ${durationS} s runs (servers on core ${SERVER_CPU}, autocannon on core ${LOAD_CPU})`,
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'errors', 'MCP req/s ÷ target'],
    [
      runRow('Toolgate MCP tools/call (POST /mcp/bench)', m, '—'),
      runRow(
        'Toolgate REST invoke, same tool, same server',
        results.rest!,
        `${(m.rps / results.rest!.rps).toFixed(2)}× (target ≥ 0.8×, issue 25)`,
      ),
      runRow(
        'SDK stateless Streamable HTTP example',
        results.sdk!,
        `${(m.rps / results.sdk!.rps).toFixed(2)}× (target ≥ 5×)`,
      ),
    ],
  );
  if (list) {
    results.list = list;
    printTable(
      `MCP tools/list of an agent type with ${WIDE_TOOL_COUNT} bound tools, one connection, ${durationS} s`,
      ['req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'errors', 'target'],
      [[list.rps, list.p50Ms, list.p99Ms, list.cpuUsPerReq, list.errors + list.non2xx, 'p99 ≤ 10 ms']],
    );
  }
  return results;
}
