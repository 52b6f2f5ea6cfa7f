import { startOtlpReceiver } from '../../support/otlp-receiver.js';
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

const ROUNDS = 3;
const CONNECTIONS = 64;

/**
 * What tracing costs on the governed L0 no-op invoke (ADR 019): the same gateway without
 * OTEL_EXPORTER_OTLP_ENDPOINT (the default: the API's no-op tracer, no span made) and with it
 * (every request sampled, spans batched to a loopback OTLP/HTTP receiver in this process). The two
 * servers are pinned to the same core and measured in alternating rounds; medians reported.
 */
export async function tracingCost(
  env: Record<string, string>,
  durationS: number,
): Promise<Record<string, Run>> {
  const receiver = await startOtlpReceiver();
  const servers = {
    off: await startPinned<{ port: number; agentKey: string }>('bench-server.js', SERVER_CPU, env),
    on: await startPinned<{ port: number; agentKey: string }>('bench-server.js', SERVER_CPU, {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    }),
  };
  const runs: Record<string, Run[]> = { off: [], on: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, s] of Object.entries(servers)) {
        const target = {
          url: `http://127.0.0.1:${s.info.port}/v1/agents/bench/tools/bench_noop/invoke`,
          body: JSON.stringify({ input: {} }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${s.info.agentKey}` },
          pid: s.pid,
        };
        runs[name]!.push(await measure(target, CONNECTIONS, durationS));
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    await receiver.close();
  }
  const off = medianRun(runs.off!);
  const on = medianRun(runs.on!);
  printTable(
    `Tracing cost, governed L0 no-op invoke: c=${CONNECTIONS}, median of ${ROUNDS} alternating ${durationS} s runs (servers on core ${SERVER_CPU}, autocannon on core ${LOAD_CPU}); ${receiver.spans.length} spans received`,
    ['tracing', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'errors', 'req/s ÷ off'],
    [
      runRow('off (no OTEL_EXPORTER_OTLP_ENDPOINT)', off, '—'),
      runRow('on (OTLP/HTTP, every request sampled)', on, `${(on.rps / off.rps).toFixed(2)}×`),
    ],
  );
  return { off, on };
}
