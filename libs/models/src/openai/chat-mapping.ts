import type OpenAI from 'openai';
import type {
  ModelMessage,
  ModelTool,
  ModelToolCall,
  ModelTurnRequest,
  ModelUsage,
} from '../model-client.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.ChatCompletionTool;
type ChatToolCall = OpenAI.Chat.ChatCompletionMessageToolCall;
type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

/** The request body of one turn, without the streaming switches. */
export function chatParams(request: ModelTurnRequest): ChatParams {
  const withTools = request.tools.length > 0;
  return {
    model: request.model.model,
    messages: request.messages.map(toChatMessage),
    // Providers reject an empty tool list, and parallel_tool_calls without tools.
    ...(withTools ? { tools: request.tools.map(toChatTool) } : {}),
    ...(withTools && request.parallelToolCalls !== undefined
      ? { parallel_tool_calls: request.parallelToolCalls }
      : {}),
  };
}

function toChatMessage(message: ModelMessage): ChatMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/**
 * Strict mode stays off (the field is left out): the gateway validates every input against the
 * tool's schema anyway, and strict mode would refuse the optional fields most tool schemas have.
 */
function toChatTool(tool: ModelTool): ChatTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
  };
}

/** The function calls of an answer; other kinds (custom tools) are never offered, so never asked for. */
export function fromChatToolCalls(calls: readonly ChatToolCall[] | undefined): ModelToolCall[] {
  return (calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
      : [],
  );
}

export function fromChatUsage(usage: OpenAI.CompletionUsage | null | undefined): ModelUsage {
  return { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
}

/** Tool calls arrive in pieces when streamed: the first piece of an index has id and name, the rest add to the arguments. */
export class StreamedToolCalls {
  private readonly byIndex = new Map<number, { id: string; name: string; arguments: string }>();

  add(deltas: readonly OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall[] | undefined): void {
    for (const delta of deltas ?? []) {
      const call = this.byIndex.get(delta.index) ?? { id: '', name: '', arguments: '' };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.arguments += delta.function.arguments;
      this.byIndex.set(delta.index, call);
    }
  }

  calls(): ModelToolCall[] {
    return [...this.byIndex.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ ...call }));
  }
}
