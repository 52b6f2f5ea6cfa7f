import OpenAI from 'openai';
import type { ModelClient, ModelTurn, ModelTurnRequest } from '../model-client.js';
import type { ModelProviderOptions } from '../models.options.js';
import { chatParams, fromChatToolCalls, fromChatUsage, StreamedToolCalls } from './chat-mapping.js';
import { toModelError } from './model-errors.js';

/** A key is required by the openai client; local servers (Ollama, vLLM) ignore it. */
const NO_KEY = 'none';

/**
 * A provider speaking the OpenAI chat-completions API (OpenAI, DeepSeek, Qwen/DashScope, Moonshot,
 * vLLM, Ollama…), through the official `openai` client (ADR 013). The client retries 429, 5xx and
 * connection failures with backoff; what still fails becomes a ModelError.
 */
export class OpenAICompatibleClient implements ModelClient {
  private readonly openai: OpenAI;

  constructor(
    private readonly provider: string,
    private readonly options: ModelProviderOptions,
  ) {
    this.openai = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? NO_KEY,
      // Explicit, so OPENAI_ORG_ID / OPENAI_PROJECT_ID of the environment never leak into requests.
      organization: null,
      project: null,
      maxRetries: options.maxRetries,
      timeout: options.timeoutMs,
      // Failures reach the caller as ModelErrors; the client must not print to the console itself.
      logLevel: 'off',
    });
  }

  async complete(request: ModelTurnRequest): Promise<ModelTurn> {
    try {
      return request.onTextDelta
        ? await this.streamed(request, request.onTextDelta)
        : await this.whole(request);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      throw toModelError(this.provider, error, {
        apiKey: this.options.apiKey,
        timeoutMs: this.options.timeoutMs,
        signal: request.signal,
      });
    }
  }

  private async whole(request: ModelTurnRequest): Promise<ModelTurn> {
    const completion = await this.openai.chat.completions.create(chatParams(request), {
      signal: request.signal,
    });
    const choice = completion.choices[0];
    return {
      text: choice?.message.content ?? null,
      toolCalls: fromChatToolCalls(choice?.message.tool_calls),
      usage: fromChatUsage(completion.usage),
      finishReason: choice?.finish_reason ?? 'stop',
    };
  }

  private async streamed(
    request: ModelTurnRequest,
    onTextDelta: (delta: string) => void,
  ): Promise<ModelTurn> {
    const stream = await this.openai.chat.completions.create(
      { ...chatParams(request), stream: true, stream_options: { include_usage: true } },
      { signal: request.signal },
    );
    let text: string | null = null;
    const toolCalls = new StreamedToolCalls();
    let usage = fromChatUsage(undefined);
    let finishReason = 'stop';
    for await (const chunk of stream) {
      // With include_usage the last chunk carries the usage and no choice.
      if (chunk.usage) usage = fromChatUsage(chunk.usage);
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.delta.content) {
        text = (text ?? '') + choice.delta.content;
        onTextDelta(choice.delta.content);
      }
      toolCalls.add(choice.delta.tool_calls);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    return { text, toolCalls: toolCalls.calls(), usage, finishReason };
  }
}
