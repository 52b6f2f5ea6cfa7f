import {
  ModelError,
  type ModelClient,
  type ModelMessage,
  type ModelTool,
  type ModelToolCall,
  type ModelTurn,
  type ModelTurnRequest,
} from '../model-client.js';

export const DEMO_PROVIDER = 'demo';
export const DEMO_MODEL = 'demo-planner';

/** Words that ask for a demo tool besides its own name (the demo tenants' tools). */
const TOOL_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  get_service_status: ['服务', '状态', 'status'],
  read_logs: ['日志', '错误', 'logs', 'error'],
  restart_service: ['重启', 'restart'],
  query_supplier_delivery: ['供应商', '交付', '交货', 'supplier', 'delivery'],
};

const SERVICE_NAME = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b/;
const SUPPLIER_ID = /\b[A-Z]\d{4,}\b/;
const CJK = /[\u3400-\u9fff]/;
/** restart_service wants a reason of at least 10 characters. */
const MIN_REASON_LENGTH = 10;
const MAX_RESULT_CHARS = 160;

/** Input fields the planner knows how to fill from the question, by property name. */
const FIELD_FILLERS: Readonly<Record<string, (question: string) => string | undefined>> = {
  service: (q) => SERVICE_NAME.exec(q)?.[0],
  supplierId: (q) => SUPPLIER_ID.exec(q)?.[0],
  reason: (q) => (q.length >= MIN_REASON_LENGTH ? q : `${q} (requested in an agent run)`),
  query: (q) => q,
  task: (q) => q,
};

type Language = 'zh-CN' | 'en';

/**
 * A stand-in for a language model that needs no network and no key, so the demo tenants' agents
 * run out of the box and tests get the same turns every time. It is deliberately simple: it picks
 * tools by keywords of the last user message, fills their inputs from the same text, asks for all
 * of them in one turn and, once their results are in, writes a short answer from them.
 */
export class DemoPlanner implements ModelClient {
  // async: a refusal or an abort rejects the promise, as with a real provider.
  async complete(request: ModelTurnRequest): Promise<ModelTurn> {
    request.signal?.throwIfAborted();
    if (request.model.model !== DEMO_MODEL) {
      throw new ModelError(
        'MODEL_REJECTED',
        `provider demo has no model ${request.model.model} (only ${DEMO_MODEL})`,
      );
    }
    const turn = nextTurn(request.messages, request.tools, request.parallelToolCalls !== false);
    if (turn.text !== null) request.onTextDelta?.(turn.text);
    return turn;
  }
}

function nextTurn(
  messages: readonly ModelMessage[],
  tools: readonly ModelTool[],
  parallel: boolean,
): ModelTurn {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const lastUserMessage = messages[lastUser];
  const question = lastUserMessage?.role === 'user' ? lastUserMessage.content.trim() : '';
  const sinceQuestion = messages.slice(lastUser + 1);
  const asked = sinceQuestion.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
  const askedNames = new Set(asked.map((call) => call.name));

  const planned = planCalls(question, tools).filter((call) => !askedNames.has(call.name));
  if (planned.length > 0) {
    const turnNumber = messages.filter((m) => m.role === 'assistant').length;
    const toolCalls = (parallel ? planned : planned.slice(0, 1)).map((call, index) => ({
      id: `demo_${turnNumber}_${index}`,
      ...call,
    }));
    return { text: null, toolCalls, usage: NO_USAGE, finishReason: 'tool_calls' };
  }

  const language: Language = CJK.test(question) ? 'zh-CN' : 'en';
  const results = sinceQuestion.flatMap((m) =>
    m.role === 'tool'
      ? [{ tool: asked.find((call) => call.id === m.toolCallId)?.name ?? m.toolCallId, content: m.content }]
      : [],
  );
  const text = results.length > 0 ? answerFrom(results, language) : directAnswer(tools, language);
  return { text, toolCalls: [], usage: NO_USAGE, finishReason: 'stop' };
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0 } as const;

/** The tools the question asks for, in the order offered, with the inputs the text gives. */
function planCalls(question: string, tools: readonly ModelTool[]): Omit<ModelToolCall, 'id'>[] {
  const text = question.toLowerCase();
  return tools.flatMap((tool) => {
    const words = [tool.name, tool.name.replaceAll('_', ' '), ...(TOOL_KEYWORDS[tool.name] ?? [])];
    if (!words.some((word) => text.includes(word))) return [];
    const input = fillInput(question, tool.parameters);
    return input ? [{ name: tool.name, arguments: JSON.stringify(input) }] : [];
  });
}

/** The input object, or undefined when a required field cannot be read from the question. */
function fillInput(
  question: string,
  schema: Readonly<Record<string, unknown>>,
): Record<string, string> | undefined {
  const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const required = (schema.required as string[] | undefined) ?? [];
  const input: Record<string, string> = {};
  for (const name of properties) {
    const value = FIELD_FILLERS[name]?.(question);
    if (value !== undefined) input[name] = value;
  }
  return required.every((name) => name in input) ? input : undefined;
}

interface ToolResult {
  readonly tool: string;
  readonly content: string;
}

function answerFrom(results: readonly ToolResult[], language: Language): string {
  const lines = results.map(({ tool, content }) => {
    const failure = errorEnvelopeIn(content);
    if (failure) {
      return language === 'zh-CN'
        ? `- ${tool} 未成功：${failure.code}（${failure.error}）`
        : `- ${tool} did not succeed: ${failure.code} (${failure.error})`;
    }
    return `- ${tool}${language === 'zh-CN' ? '：' : ': '}${shorten(content)}`;
  });
  const heading = language === 'zh-CN' ? '根据工具结果：' : 'From the tool results:';
  return [heading, ...lines].join('\n');
}

function directAnswer(tools: readonly ModelTool[], language: Language): string {
  const names = tools.map((tool) => tool.name);
  return language === 'zh-CN'
    ? `没有与问题匹配的工具，直接回答：我是演示规划器（离线、确定性），按关键词调用工具。可用的工具：${names.join('、') || '无'}。`
    : `No tool matches the question, so I answer directly: I am the demo planner (offline, deterministic) and call tools by keyword. Tools available: ${names.join(', ') || 'none'}.`;
}

/** A tool result that is the gateway's error envelope (`{error, code, …}`), e.g. APPROVAL_DENIED. */
function errorEnvelopeIn(content: string): { code: string; error: string } | undefined {
  const parsed = parseJson(content);
  if (parsed && typeof parsed === 'object' && 'code' in parsed && 'error' in parsed) {
    const { code, error } = parsed;
    if (typeof code === 'string' && typeof error === 'string') return { code, error };
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function shorten(content: string): string {
  const parsed = parseJson(content);
  const compact = parsed === undefined ? content : JSON.stringify(parsed);
  return compact.length > MAX_RESULT_CHARS ? `${compact.slice(0, MAX_RESULT_CHARS)}…` : compact;
}
