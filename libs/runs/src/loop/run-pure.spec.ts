import { describe, expect, it } from 'vitest';
import { attemptCallId, runCallId } from './run-ids.js';
import { limitReached } from './run-limits.js';
import { buildMessages, modelTextOf, parseArguments } from './run-messages.js';
import { modelLabel, parseModelLabel } from './run-settings.js';

const DEFAULT_RUN_SETTINGS = { maxSteps: 8, deadlineMs: 120_000, tokenBudget: null };

describe('run ids', () => {
  it('derives a call id from run, step and index, the same every time', () => {
    expect(runCallId('run_abc', 2, 1)).toBe('run_abc.2.1');
    expect(runCallId('run_abc', 2, 1)).toBe(runCallId('run_abc', 2, 1));
  });

  it('runs the first attempt of a call under its id, a re-run under an id of its own', () => {
    expect(attemptCallId({ callId: 'run_abc.2.1', attempt: 1 })).toBe('run_abc.2.1');
    expect(attemptCallId({ callId: 'run_abc.2.1', attempt: 3 })).toBe('run_abc.2.1.r3');
  });
});

describe('run limits', () => {
  const now = new Date('2026-12-01T00:00:00Z');
  const later = new Date(now.getTime() + 1_000);
  const settings = { ...DEFAULT_RUN_SETTINGS, maxSteps: 3, tokenBudget: 100 };

  it('answers null while every limit holds', () => {
    expect(limitReached({ steps: 2, tokens: 99, deadlineAt: later, now }, settings, 'en')).toBeNull();
  });

  it('names the limit reached: deadline first, then steps, then budget', () => {
    const at = (p: Partial<Parameters<typeof limitReached>[0]>) =>
      limitReached({ steps: 0, tokens: 0, deadlineAt: later, now, ...p }, settings, 'en')?.code;
    expect(at({ deadlineAt: now })).toBe('DEADLINE_EXCEEDED');
    expect(at({ steps: 3, deadlineAt: now })).toBe('DEADLINE_EXCEEDED');
    expect(at({ steps: 3 })).toBe('STEP_LIMIT');
    expect(at({ tokens: 100 })).toBe('BUDGET_EXCEEDED');
    expect(
      limitReached({ steps: 0, tokens: 1e9, deadlineAt: later, now }, DEFAULT_RUN_SETTINGS, 'en'),
    ).toBeNull();
  });

  it('says the limit in the message', () => {
    const e = limitReached({ steps: 3, tokens: 0, deadlineAt: later, now }, settings, 'en');
    expect(e?.error).toContain('3');
  });
});

describe('run messages', () => {
  it('builds instructions, the session so far, the question, then each step with its results', () => {
    const call = { id: 'c1', name: 'get_service_status', arguments: '{"service":"a"}' };
    expect(
      buildMessages('Be brief.', [{ input: 'q0', output: 'a0' }], 'q1', [
        { text: null, toolCalls: [call], results: ['up'] },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'q0' },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: null, toolCalls: [call] },
      { role: 'tool', toolCallId: 'c1', content: 'up' },
    ]);
    expect(buildMessages('', [], 'q', [])).toEqual([{ role: 'user', content: 'q' }]);
  });

  it('shows the model the toModelOutput projection, else the data, and failures as their envelope', () => {
    expect(modelTextOf({ envelope: { status: 'ok', data: { a: 1 } } })).toBe('{"a":1}');
    expect(
      modelTextOf({
        envelope: { status: 'ok', data: { a: 1 } },
        modelOutput: { type: 'text', value: 'one' },
      }),
    ).toBe('one');
    const failure = { error: 'no', code: 'X', suggestedAction: 'retry' };
    expect(JSON.parse(modelTextOf({ envelope: failure }))).toEqual(failure);
  });

  it('parses arguments to an object, or null when they are not one', () => {
    expect(parseArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseArguments('')).toEqual({});
    expect(parseArguments('{"a":')).toBeNull();
    expect(parseArguments('[1]')).toBeNull();
    expect(parseArguments('null')).toBeNull();
  });
});

describe('model labels', () => {
  it('round-trips provider/model, slashes in the model name included', () => {
    const ref = { provider: 'default', model: 'Qwen/Qwen2.5-7B' };
    expect(parseModelLabel(modelLabel(ref))).toEqual(ref);
  });
});
