import { AgentFactory } from '@toolgate/agents';
import type { Principal } from '@toolgate/auth';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { benchNoop, BenchToolsModule } from './bench-tools.js';
import { percentiles, printTable } from './bench-support.js';

const WARMUP = 20_000;
const CALLS = 200_000;

/**
 * In-process overhead of a governed L0 no-op call (the whole pipeline with the gateway's real
 * hooks) over calling the same function directly.
 */
export async function inProcessOverhead(
  env: Record<string, string>,
): Promise<{ overheadP50: number; overheadP99: number }> {
  const settings = loadSettings({ ...env, TOOLGATE_LOG_LEVEL: 'warn' });
  const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
  await app.init();
  const principal: Principal = {
    principalType: 'api_key',
    principalId: 'bench',
    role: 'agent',
    tenantId: 'bench',
    agentTypes: null,
    name: 'bench',
  };
  const agent = await app.get(AgentFactory).create('bench', 'bench', principal);

  const governed = async () => agent.invoke('bench_noop', {}, { locale: 'en' });
  const ctx = {} as never;
  const direct = async () => benchNoop.execute({}, ctx);

  const measure = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < WARMUP; i++) await fn();
    const samples = new Float64Array(CALLS);
    for (let i = 0; i < CALLS; i++) {
      const t = process.hrtime.bigint();
      await fn();
      samples[i] = Number(process.hrtime.bigint() - t);
    }
    return percentiles(samples);
  };
  const d = await measure(direct);
  const g = await measure(governed);
  await app.close();
  const overheadP50 = g.p50 - d.p50;
  const overheadP99 = g.p99 - d.p99;
  printTable(
    `In-process: governed L0 no-op vs direct call (${CALLS.toLocaleString('en-US')} sequential calls, µs)`,
    ['call', 'p50 µs', 'p99 µs', 'mean µs'],
    [
      ['direct function call', d.p50, d.p99, d.mean],
      ['governed (Agent.invoke → ToolExecutor, all hooks)', g.p50, g.p99, g.mean],
      ['overhead of governance (target ≤ 15 µs p50)', overheadP50, overheadP99, g.mean - d.mean],
    ],
  );
  return { overheadP50, overheadP99 };
}
