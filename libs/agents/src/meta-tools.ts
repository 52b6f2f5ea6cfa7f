import { exportTool, invalidInputEnvelope, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import type { Agent } from './agent.js';

/** A tool as a model (or an MCP client) is shown it; the models lib's `ModelTool` has this shape. */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * Deferred tools (docs/tool-design-rules.md, seed 000): absent from the model's tool list, found
 * with `tool_search` and called with `tool_call`. Only the agent's bound tools are found or called,
 * and a `tool_call` runs the real tool through the same governed pipeline as any other call.
 * Agent runs and the MCP server share these, so both faces find and call the same tools.
 */
export const TOOL_SEARCH = 'tool_search';
export const TOOL_CALL = 'tool_call';

/** A bound tool as the model sees it: name, description (with its endsTurn note), input schema. */
export function modelToolOf(agent: Agent, name: string, locale: Locale): ModelToolSpec {
  const f = (exportTool(agent.tool(name), 'openai', locale) as { function: ModelToolSpec }).function;
  return { name: f.name, description: f.description, parameters: f.parameters };
}

/** The two meta-tools, offered only to agents with deferred tools. */
export function metaTools(agent: Agent, locale: Locale): ModelToolSpec[] {
  if (!agent.tools(true).some((t) => t.contract.deferred)) return [];
  const zh = locale === 'zh-CN';
  return [
    {
      name: TOOL_SEARCH,
      description: zh
        ? '按关键词查找其他可用工具（未直接列出的工具），返回名称、说明和输入结构。'
        : 'Finds more tools (ones not listed directly) by keywords; answers their names, descriptions and input schemas.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: zh ? '关键词' : 'Keywords' } },
        required: ['query'],
      },
    },
    {
      name: TOOL_CALL,
      description: zh ? '调用通过 tool_search 找到的工具。' : 'Calls a tool found with tool_search.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: zh ? '工具名称' : 'The tool name' },
          input: { type: 'object', description: zh ? '工具的输入' : "The tool's input" },
        },
        required: ['name'],
      },
    },
  ];
}

/** `tool_search`: the deferred tools whose name or description has every word of the query. */
export function searchDeferred(agent: Agent, query: unknown, locale: Locale): ModelToolSpec[] {
  const words = String(query ?? '')
    .toLowerCase()
    .split(/[\s,，、]+/)
    .filter(Boolean);
  return agent
    .tools(true)
    .filter((t) => t.contract.deferred)
    .filter((t) => {
      const text = `${t.contract.name} ${t.contract.description}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .map((t) => modelToolOf(agent, t.contract.name, locale));
}

/** `tool_call`'s input as the real call: the tool name and its input, or INVALID_INPUT. */
export function unwrapToolCall(
  input: Record<string, unknown>,
  locale: Locale,
): { name: string; input: unknown } | ErrorEnvelope {
  if (typeof input.name !== 'string' || !input.name)
    return invalidInputEnvelope([{ kind: 'missing', path: ['name'], expected: 'string' }], locale);
  return { name: input.name, input: input.input ?? {} };
}
