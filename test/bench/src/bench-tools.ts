import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { Public } from '@toolgate/auth';
import { always, defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { z } from 'zod';

/** The cheapest governed tool: L0, no input, answers `{ ok: true }`. */
export const benchNoop = defineToolContract({
  name: 'bench_noop',
  description: 'Does nothing; measures the cost of governance itself.',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
}).implement(() => ({ ok: true }));

/** An L1 tool with a typical small input, to measure audited calls. */
export const benchRecord = defineToolContract({
  name: 'bench_record',
  description: 'Records a note; L1 so every call is audited before and after.',
  inputSchema: z.object({ note: z.string().max(200), fail: z.boolean().default(false) }),
  risk: { level: 'L1', dataDomains: ['bench'] },
}).implement(({ note, fail }) => {
  if (fail) throw new Error('simulated upstream failure');
  return { stored: note.length };
});

/** An L3 tool: every call waits for a person, then runs once. */
export const benchDanger = defineToolContract({
  name: 'bench_danger',
  description: 'Pretends to do something irreversible; L3, so every call needs approval.',
  inputSchema: z.object({ target: z.string() }),
  risk: { level: 'L3' },
  approval: always(),
}).implement(({ target }) => ({ done: target }));

/** The same JSON as a governed no-op, from a bare Nest route: what the framework alone costs. */
@Controller('bench')
export class BareRouteController {
  @Public()
  @Post('bare')
  @HttpCode(200)
  bare() {
    return { data: { ok: true }, status: 'ok' };
  }
}

@Module({
  imports: [ToolkitModule.forFeature([benchNoop, benchRecord, benchDanger], 'BenchToolsModule')],
  controllers: [BareRouteController],
})
export class BenchToolsModule {}

/** The tenant the benchmark uses. */
export const BENCH_TENANT_YAML = `
id: bench
name: Benchmark
agentTypes:
  bench:
    tools:
      - bench_noop
      - bench_record
      - bench_danger
  runner:
    instructions: Answer with the help of bench_noop.
    tools:
      - bench_noop
`;

/**
 * A tenant whose `bench` agent has bench_noop under ten rules (issue 26's figure): nine that never
 * match (a person no key is), and a tenth that matches every call (`allow`) when `lastMatches`,
 * else one that matches none (an L3 test on an L0 tool). L0 access records are off, as in
 * `benchquiet`, its baseline: their batched writes share the thread and would drown a few µs.
 */
export function benchRulesTenantYaml(id: string, lastMatches: boolean): string {
  const misses = Array.from(
    { length: 9 },
    (_, i) => `
          - id: miss-${i}
            when: principal.name == "nobody-${i}" && tool.risk == "L0"
            then: deny
            reason: { en: never, zh: 从不 }`,
  ).join('');
  return `
id: ${id}
name: Benchmark with ten rules
agentTypes:
  bench:
    tools:
      - name: bench_noop
        rules:${misses}
          - id: last
            when: tool.risk == "${lastMatches ? 'L0' : 'L3'}"
            then: allow
audit:
  l0Access: false
`;
}

/** The same tenant with L0 access records off (`audit.l0Access: false`): what they cost is the difference. */
export const BENCH_QUIET_TENANT_YAML = BENCH_TENANT_YAML.replace(
  'id: bench\nname: Benchmark',
  'id: benchquiet\nname: Benchmark, L0 calls not recorded',
).concat('audit:\n  l0Access: false\n');
