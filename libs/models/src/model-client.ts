/**
 * What the agent loop needs from a language model, independent of the provider: one turn of a chat
 * with tools. Tools are described, never executed, here: the model returns tool calls and the
 * caller runs them through the governed pipeline (docs/tool-design-rules.md §A4, §4.9).
 */

/** A model of a named provider (`config/toolgate.yaml` `models.providers`), e.g. demo/demo-planner. */
export interface ModelRef {
  readonly provider: string;
  readonly model: string;
}

/** A tool call as the model asked for it; `arguments` is the raw JSON text it sent (may be malformed). */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export type ModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly toolCalls?: readonly ModelToolCall[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool as the model sees it: name, description and a JSON Schema object for its input. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelTurnRequest {
  readonly model: ModelRef;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ModelTool[];
  /** Whether the model may ask for several tool calls in one turn. */
  readonly parallelToolCalls?: boolean;
  /** Aborting rejects the turn with the signal's reason (not a ModelError): the caller knows why it stopped. */
  readonly signal?: AbortSignal;
  /** Text as the provider streams it; a client that cannot stream never calls it. */
  readonly onTextDelta?: (delta: string) => void;
}

export interface ModelTurn {
  readonly text: string | null;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage: ModelUsage;
  readonly finishReason: string;
}

export interface ModelClient {
  complete(request: ModelTurnRequest): Promise<ModelTurn>;
}

/** Why a model turn failed; the run fails with the envelope of the same code. */
export type ModelErrorCode = 'MODEL_UNAVAILABLE' | 'MODEL_REJECTED';

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    /** What went wrong, safe to show: provider name, HTTP status, never the key or the URL's secrets. */
    readonly reason: string,
    readonly status?: number,
  ) {
    super(reason);
    this.name = 'ModelError';
  }
}
