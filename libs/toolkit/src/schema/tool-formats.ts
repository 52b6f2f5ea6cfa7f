import type { JsonSchemaObject } from '../definition/tool-definition.js';
import type { Locale } from '../errors/messages.js';
import { humanizeToolName } from '../execution/labels.js';
import type { EffectiveTool } from '../execution/tool-call.js';

/** The tool-list formats the platform speaks. */
import type { ToolListFormat } from '@toolgate/contract/rules';
export { TOOL_LIST_FORMATS, type ToolListFormat } from '@toolgate/contract/rules';

/** A tool as one caller sees it: the contract plus its effective (bound) policy. */
export type ToolView = Pick<EffectiveTool, 'contract' | 'timeoutMs' | 'approval'>;

const ENDS_TURN: Record<Locale, { always: string; sometimes: string }> = {
  'zh-CN': { always: '调用此工具会结束你的回合。', sometimes: '调用此工具可能会结束你的回合。' },
  en: { always: 'Calling this tool ends your turn.', sometimes: 'Calling this tool may end your turn.' },
};

/** The description the model reads; `endsTurn` tools say so themselves (docs/tool-design-rules.md §4.6). */
export function modelDescription(tool: ToolView, locale: Locale): string {
  const { endsTurn, description } = tool.contract;
  if (endsTurn === false) return description;
  const note = typeof endsTurn === 'function' ? ENDS_TURN[locale].sometimes : ENDS_TURN[locale].always;
  return `${description}\n\n${note}`;
}

/** The platform's own listing: schemas plus everything a governance client needs. */
export function toJsonSchemaItem(tool: ToolView) {
  const c = tool.contract;
  return {
    name: c.name,
    description: c.description,
    inputSchema: c.input.jsonSchema,
    ...(c.output ? { outputSchema: c.output.jsonSchema } : {}),
    risk: {
      level: c.risk.level,
      approvalRequired: tool.approval !== 'never',
      dataDomains: c.risk.dataDomains,
      ...(c.risk.estimatedDurationMs !== undefined
        ? { estimatedDurationMs: c.risk.estimatedDurationMs }
        : {}),
    },
    timeoutMs: tool.timeoutMs,
    approval: tool.approval,
    deferred: c.deferred,
    endsTurn: typeof c.endsTurn === 'function' ? 'dynamic' : c.endsTurn,
    availableInSubagents: c.availableInSubagents,
    personalInformation: c.piClasses,
  };
}

/** OpenAI function calling. Strict mode stays off so optional fields stay optional (docs/tool-design-rules.md §4.3). */
export function toOpenAiTool(tool: ToolView, locale: Locale) {
  return {
    type: 'function' as const,
    function: {
      name: tool.contract.name,
      description: modelDescription(tool, locale),
      parameters: tool.contract.input.jsonSchema,
      strict: false,
    },
  };
}

/** Anthropic tool use. */
export function toAnthropicTool(tool: ToolView, locale: Locale) {
  return {
    name: tool.contract.name,
    description: modelDescription(tool, locale),
    input_schema: tool.contract.input.jsonSchema,
  };
}

/** A tool's title for people: its start label when that is fixed text, else its humanized name. */
export function toolTitle(tool: ToolView): string {
  const start = tool.contract.label?.start;
  return typeof start === 'string' && start.trim() ? start : humanizeToolName(tool.contract.name);
}

/**
 * MCP `tools/list` entry. Risk becomes annotations: L0 reads only (so repeating it changes
 * nothing: idempotent), L2/L3 may destroy; every tool reaches a backend outside the gateway.
 */
export function toMcpTool(tool: ToolView, locale: Locale) {
  const c = tool.contract;
  const output = c.output?.jsonSchema as JsonSchemaObject | undefined;
  const title = toolTitle(tool);
  const readOnly = c.risk.level === 'L0';
  return {
    name: c.name,
    title,
    description: modelDescription(tool, locale),
    inputSchema: c.input.jsonSchema,
    ...(output && output.type === 'object' ? { outputSchema: output } : {}),
    annotations: {
      title,
      readOnlyHint: readOnly,
      destructiveHint: c.risk.level === 'L2' || c.risk.level === 'L3',
      ...(readOnly ? { idempotentHint: true } : {}),
      openWorldHint: true,
    },
  };
}

/** One tool in the requested format. */
export function exportTool(tool: ToolView, format: ToolListFormat, locale: Locale): unknown {
  switch (format) {
    case 'jsonschema':
      return toJsonSchemaItem(tool);
    case 'openai':
      return toOpenAiTool(tool, locale);
    case 'anthropic':
      return toAnthropicTool(tool, locale);
    case 'mcp':
      return toMcpTool(tool, locale);
  }
}
