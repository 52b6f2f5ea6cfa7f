import type { ModelMessage, ModelToolCall } from '@toolgate/models';
import { isOk, type Envelope, type ToolCallResult } from '@toolgate/toolkit';

/** An earlier exchange of the same session. */
export interface SessionTurn {
  readonly input: string;
  readonly output: string;
}

/** A stored step as the model sees it again: its text, its tool calls and what each answered. */
export interface StepTranscript {
  readonly text: string | null;
  readonly toolCalls: readonly ModelToolCall[];
  /** What the model is shown for each call, by its position in `toolCalls`. */
  readonly results: readonly (string | null)[];
}

/**
 * The conversation the model gets for its next turn: the agent type's instructions, the earlier
 * runs of the session (question and answer), this run's question, then every stored step with the
 * results of its calls. Rebuilt from the database each turn, so a resumed run sees exactly what
 * the first gateway saw.
 */
export function buildMessages(
  instructions: string,
  history: readonly SessionTurn[],
  input: string,
  steps: readonly StepTranscript[],
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  for (const turn of history)
    messages.push({ role: 'user', content: turn.input }, { role: 'assistant', content: turn.output });
  messages.push({ role: 'user', content: input });
  for (const step of steps) {
    messages.push({ role: 'assistant', content: step.text, toolCalls: step.toolCalls });
    step.toolCalls.forEach((call, i) =>
      messages.push({ role: 'tool', toolCallId: call.id, content: step.results[i] ?? '' }),
    );
  }
  return messages;
}

/**
 * What the model reads of a call's outcome: on success the tool's `toModelOutput` projection when
 * it has one (the same as `?view=model` of the REST invoke), else the data; on failure the error
 * envelope, whose code and readable path let the model correct its call.
 */
export function modelTextOf(result: Pick<ToolCallResult, 'envelope' | 'modelOutput'>): string {
  return modelTextOfEnvelope(result.envelope, result.modelOutput);
}

export function modelTextOfEnvelope(envelope: Envelope, modelOutput?: ToolCallResult['modelOutput']): string {
  if (!isOk(envelope)) return JSON.stringify(envelope);
  if (modelOutput?.type === 'text') return modelOutput.value;
  if (modelOutput) return JSON.stringify(modelOutput.value);
  return typeof envelope.data === 'string' ? envelope.data : JSON.stringify(envelope.data ?? null);
}

/** The model's argument text as a tool input: a JSON object, or null when it is not one. */
export function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
