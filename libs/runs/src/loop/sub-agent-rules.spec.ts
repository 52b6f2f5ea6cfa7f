import { describe, expect, it } from 'vitest';
import { newRunId } from './run-ids.js';
import {
  childPrincipal,
  childRunId,
  childSessionId,
  delegatedAgentType,
  delegateResult,
  delegateTask,
  delegateTool,
  delegateToolName,
  purposeOf,
} from './sub-agent-rules.js';

describe('sub-agent rules', () => {
  it('names one delegate tool per agent type, and reads the agent type back', () => {
    expect(delegateToolName('researcher')).toBe('delegate_to_researcher');
    expect(delegatedAgentType('delegate_to_researcher')).toBe('researcher');
    expect(delegatedAgentType('delegate_to_')).toBeNull();
    expect(delegatedAgentType('get_service_status')).toBeNull();
    // Providers refuse tool names longer than 64 characters.
    expect(delegateToolName('a'.repeat(52))).toHaveLength(64);
    expect(delegateToolName('a'.repeat(53))).toBeNull();
  });

  it("derives a child's run id from the delegate call id: the same every time, a run id, 64 characters at most", () => {
    const parent = newRunId();
    const callId = `${parent}.2.1`;
    expect(childRunId(callId)).toBe(`${parent}_2_1`);
    expect(childRunId(callId)).toBe(childRunId(callId));
    // The part before the first dot of the child's call ids is the child (approvals trace back to it).
    expect(`${childRunId(callId)}.0.0`.split('.')[0]).toBe(childRunId(callId));
    // Nested deep enough, the readable id would leave no room for call suffixes: a hash instead.
    let id = parent;
    for (let depth = 0; depth < 8; depth++) {
      id = childRunId(`${id}.12.3`);
      expect(id.startsWith('run_')).toBe(true);
      expect(`${id}.999.999`.length).toBeLessThanOrEqual(64);
      expect(id).not.toContain('.');
    }
    expect(childRunId(`${'run_x'.padEnd(60, 'x')}.1.0`)).toMatch(/^run_[0-9a-f]{32}$/);
    expect(childSessionId(`${parent}_2_1`)).toBe(`ses_${parent.slice(4)}_2_1`);
  });

  it("lets a limited agent key use its agent type's sub-agents", () => {
    const key = { principalType: 'api_key' as const, principalId: 'k1', role: 'agent', agentTypes: ['lead'] };
    expect(childPrincipal(key, 'researcher').agentTypes).toEqual(['lead', 'researcher']);
    expect(childPrincipal({ ...key, agentTypes: null }, 'researcher').agentTypes).toBeNull();
    expect(childPrincipal(key, 'lead').agentTypes).toEqual(['lead']);
  });

  it("describes a sub-agent by its description, else its instructions' first line, in the run's locale", () => {
    expect(purposeOf('Researches service health.', 'ignored')).toBe('Researches service health');
    expect(purposeOf('', '修复服务。\n第二行')).toBe('修复服务');
    expect(purposeOf('', '')).toBe('');
    const en = delegateTool('delegate_to_fixer', 'fixer', 'Restarts services', 'en');
    expect(en.description).toContain('sub-agent fixer (Restarts services)');
    expect(en.parameters).toMatchObject({ required: ['task'], properties: { task: { type: 'string' } } });
    expect(delegateTool('delegate_to_fixer', 'fixer', '重启服务', 'zh-CN').description).toContain(
      '子代理 fixer（重启服务）',
    );
  });

  it('takes the task from the input, or answers INVALID_INPUT the model can correct', () => {
    expect(delegateTask({ task: 'check payment-api' }, 'en')).toBe('check payment-api');
    for (const input of [{}, { task: 3 }, { task: '  ' }, null])
      expect(delegateTask(input, 'en')).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it("answers a delegate call with the child's output, or with its error envelope naming the child", () => {
    expect(
      delegateResult({ runId: 'run_c', status: 'completed', output: 'fine', error: null }, 'en'),
    ).toEqual({
      status: 'succeeded',
      envelope: { status: 'ok', data: { runId: 'run_c', output: 'fine' } },
      modelText: 'fine',
    });
    const error = {
      error: 'Step limit',
      code: 'STEP_LIMIT',
      suggestedAction: 'Ask less',
      details: { maxSteps: 3 },
    };
    const failed = delegateResult({ runId: 'run_c', status: 'failed', output: null, error }, 'en');
    expect(failed).toMatchObject({
      status: 'failed',
      envelope: { code: 'STEP_LIMIT', details: { maxSteps: 3, runId: 'run_c' } },
    });
    expect(JSON.parse(failed.modelText)).toEqual(failed.envelope);
  });
});
