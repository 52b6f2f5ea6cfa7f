import { DEFAULT_AGENT_RUN_SETTINGS } from '@toolgate/contract';
import { describe, expect, it } from 'vitest';

/** A tenant file with no sections: these specs are about its own fields. */
const NO_SECTIONS = {};
import { storedRunSettings, subAgentProblems, toAgentRunSettings } from './agent-run-settings.js';
import { parseTenantFile, TenantConfigError } from './config/tenant-file.loader.js';
import { runSettingsOf } from './config/tenant-file.schema.js';

const FILE = `id: acme
name: ACME
agentTypes:
  ops_assistant:
    description: 运维助手
    instructions: 你是运维助手。
    tools: [read_logs]
  log_reader:
    tools: [read_logs]
`;

/** The problems a tenant file's text is refused with. */
function problemsOf(text: string): readonly string[] {
  try {
    parseTenantFile('tenants/acme.yaml', text, NO_SECTIONS);
  } catch (err) {
    if (err instanceof TenantConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

/** FILE with extra lines under ops_assistant (after its instructions). */
const withOps = (lines: string) =>
  FILE.replace('    instructions: 你是运维助手。\n', `    instructions: 你是运维助手。\n${lines}`);

describe('agent run settings in tenant files', () => {
  it('fills the defaults: no model, 8 steps, 2 minutes, 4 parallel calls, no budget, no sub-agents', () => {
    const { tenant } = parseTenantFile('tenants/acme.yaml', FILE, NO_SECTIONS);
    expect(runSettingsOf(tenant.agentTypes.log_reader!)).toEqual({
      model: null,
      instructions: '',
      maxSteps: 8,
      deadlineMs: 120_000,
      maxParallelToolCalls: 4,
      tokenBudget: null,
      subAgents: [],
    });
    expect(runSettingsOf(tenant.agentTypes.ops_assistant!).instructions).toBe('你是运维助手。');
  });

  it('reads a model, limits, a budget and sub-agents; the run loop sees the model as a ModelRef', () => {
    const { tenant } = parseTenantFile(
      'tenants/acme.yaml',
      withOps(
        [
          '    model: { provider: default, name: qwen-plus }',
          '    maxSteps: 50',
          '    deadlineMs: 1000',
          '    maxParallelToolCalls: 16',
          '    tokenBudget: 20000',
          '    subAgents: [log_reader]',
          '',
        ].join('\n'),
      ),
      NO_SECTIONS,
    );
    const run = toAgentRunSettings(runSettingsOf(tenant.agentTypes.ops_assistant!));
    expect(run).toEqual({
      model: { provider: 'default', model: 'qwen-plus' },
      instructions: '你是运维助手。',
      maxSteps: 50,
      deadlineMs: 1_000,
      maxParallelToolCalls: 16,
      tokenBudget: 20_000,
      subAgents: ['log_reader'],
    });
  });

  it('refuses limits out of bounds, naming file, path and line', () => {
    const problems = problemsOf(
      withOps(
        [
          '    maxSteps: 51',
          '    deadlineMs: 999',
          '    maxParallelToolCalls: 0',
          '    tokenBudget: -1',
          '',
        ].join('\n'),
      ),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^tenants\/acme\.yaml: agentTypes\.ops_assistant\.maxSteps: .*50.* \(line 7\)$/),
      expect.stringMatching(/agentTypes\.ops_assistant\.deadlineMs: .*1000.* \(line 8\)$/),
      expect.stringMatching(/agentTypes\.ops_assistant\.maxParallelToolCalls: .* \(line 9\)$/),
      expect.stringMatching(/agentTypes\.ops_assistant\.tokenBudget: .* \(line 10\)$/),
    ]);
  });

  it('refuses a model with a URL or a key: only a provider name and a model name', () => {
    expect(problemsOf(withOps('    model: { provider: "https://evil.example/v1", name: x }\n'))).toEqual([
      expect.stringMatching(
        /agentTypes\.ops_assistant\.model\.provider: name a model provider .* \(line 7\)$/,
      ),
    ]);
    expect(problemsOf(withOps('    model: { provider: default, name: x, apiKey: sk-1 }\n'))).toEqual([
      expect.stringMatching(/agentTypes\.ops_assistant\.model: .*apiKey.* \(line 7\)$/),
    ]);
  });

  it('refuses sub-agents that are unknown, itself, repeated or make a cycle', () => {
    expect(problemsOf(withOps('    subAgents: [ops_assistant, nobody, log_reader, log_reader]\n'))).toEqual([
      'tenants/acme.yaml: agentTypes.ops_assistant.subAgents[0]: an agent type cannot be its own sub-agent (line 7)',
      'tenants/acme.yaml: agentTypes.ops_assistant.subAgents[1]: "nobody" is not an agent type of this tenant (line 7)',
      'tenants/acme.yaml: agentTypes.ops_assistant.subAgents[3]: "log_reader" is listed twice (line 7)',
    ]);
    const cycle = withOps('    subAgents: [log_reader]\n').replace(
      '  log_reader:\n',
      '  log_reader:\n    subAgents: [ops_assistant]\n',
    );
    expect(problemsOf(cycle)).toEqual([
      expect.stringContaining(
        'agentTypes.ops_assistant.subAgents[0]: delegating to "log_reader" leads back: ops_assistant → log_reader → ops_assistant',
      ),
      expect.stringContaining('agentTypes.log_reader.subAgents[0]: delegating to "ops_assistant" leads back'),
    ]);
  });
});

describe('subAgentProblems', () => {
  it('finds longer cycles and checks one agent type only when asked', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(subAgentProblems(graph, 'a')).toEqual([
      { agentType: 'a', index: 0, problem: 'delegating to "b" leads back: a → b → c → a' },
    ]);
    expect(subAgentProblems(graph).map((p) => p.agentType)).toEqual(['a', 'b', 'c']);
    expect(
      subAgentProblems(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads rows stored before agent types had run settings as the defaults', () => {
    expect(storedRunSettings(null)).toEqual(DEFAULT_AGENT_RUN_SETTINGS);
    expect(toAgentRunSettings(storedRunSettings(undefined)).model).toBeNull();
  });
});
