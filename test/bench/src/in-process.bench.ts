import { AgentFactory } from '@toolgate/agents';
import type { Principal } from '@toolgate/auth';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { benchNoop, BenchToolsModule } from './bench-tools.js';
import { percentiles, printTable, type Percentiles } from './bench-support.js';

const WARMUP = 20_000;
const CALLS = 200_000;
/** Alternating rounds of the rules table (each CALLS calls of each of its three). */
const RULE_ROUNDS = 3;

/**
 * In-process overhead of a governed L0 no-op call (the whole pipeline with the gateway's real
 * hooks) over calling the same function directly; and what ten tenant rules add to that call
 * (issue 26: ≤ 3 µs at p50, none matching and the last matching), the tenants `benchrules` and
 * `benchlate` of bench-tools.ts against `benchquiet` (all three without L0 access records).
 */
export async function inProcessOverhead(
  env: Record<string, string>,
): Promise<{ overheadP50: number; overheadP99: number }> {
  const settings = loadSettings({ ...env, TOOLGATE_LOG_LEVEL: 'warn' });
  const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
  await app.init();
  const agentOf = (tenantId: string) => {
    const principal: Principal = {
      principalType: 'api_key',
      principalId: 'bench',
      role: 'agent',
      tenantId,
      agentTypes: null,
      name: 'bench',
    };
    return app.get(AgentFactory).create(tenantId, 'bench', principal);
  };
  const [agent, quiet, ruled, late] = await Promise.all(
    ['bench', 'benchquiet', 'benchrules', 'benchlate'].map(agentOf),
  );

  const governed = async () => agent!.invoke('bench_noop', {}, { locale: 'en' });
  const unruled = async () => quiet!.invoke('bench_noop', {}, { locale: 'en' });
  const underRules = async () => ruled!.invoke('bench_noop', {}, { locale: 'en' });
  const underLateMatch = async () => late!.invoke('bench_noop', {}, { locale: 'en' });
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
  // Each call under rules must have run the tool: a refusal would be cheaper and prove nothing.
  for (const call of [underRules, underLateMatch]) {
    const { envelope } = await call();
    if (!('status' in envelope) || envelope.status !== 'ok')
      throw new Error(`the bench's ruled call was refused: ${JSON.stringify(envelope)}`);
  }
  const d = await measure(direct);
  const g = await measure(governed);
  // Ten rules against none: a difference of a few µs, so the three are measured in alternating
  // rounds and each reported by its round of median p50 (JIT and GC drift across one long run).
  const rounds: Record<'g' | 'r' | 'l', Percentiles[]> = { g: [], r: [], l: [] };
  for (let i = 0; i < RULE_ROUNDS; i++) {
    rounds.g.push(await measure(unruled));
    rounds.r.push(await measure(underRules));
    rounds.l.push(await measure(underLateMatch));
  }
  const medianRound = (ps: Percentiles[]) => [...ps].sort((a, b) => a.p50 - b.p50)[ps.length >> 1]!;
  const [g0, r, l] = [medianRound(rounds.g), medianRound(rounds.r), medianRound(rounds.l)];
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
  printTable(
    `In-process: the governed L0 no-op under ten tenant rules (median of ${RULE_ROUNDS} alternating rounds of ${CALLS.toLocaleString('en-US')} calls, µs)`,
    ['call', 'p50 µs', 'p99 µs', 'mean µs'],
    [
      ['governed, no rules', g0.p50, g0.p99, g0.mean],
      ['governed, 10 rules, none matching', r.p50, r.p99, r.mean],
      ['governed, 10 rules, the last matching (allow)', l.p50, l.p99, l.mean],
      ['added by 10 rules, none matching (target ≤ 3 µs p50)', r.p50 - g0.p50, '', r.mean - g0.mean],
      ['added by 10 rules, the last matching (target ≤ 3 µs p50)', l.p50 - g0.p50, '', l.mean - g0.mean],
    ],
  );
  return { overheadP50, overheadP99 };
}
