import { metaTools, TOOL_CALL, TOOL_SEARCH, type Agent } from '@toolgate/agents';
import type { ResolvedAgentType } from '@toolgate/tenancy';
import { exportTool, type EffectiveTool, type Locale } from '@toolgate/toolkit';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { asModernResult, CACHE_HINTS } from './protocol-revisions.js';

/** The meta-tool every MCP agent has: the state of a call (an approval's outcome) by its id. */
export const CALL_STATUS = 'toolgate_call_status';

/** How an MCP name is reached: a bound, listed tool; a meta-tool; or nothing (unknown). */
export type McpToolTarget =
  | { readonly kind: 'tool' }
  | { readonly kind: 'search' }
  | { readonly kind: 'call' }
  | { readonly kind: 'status' };

/** The tool list of one agent type in one locale, and what each listed name reaches. */
export interface McpToolList {
  readonly tools: readonly Tool[];
  readonly targets: ReadonlyMap<string, McpToolTarget>;
  /** The `tools/list` result, one object per entry: its JSON is serialized once (`preserializedJson`). */
  readonly result: { readonly tools: Tool[] };
  /**
   * The same list for the 2026-07-28 revision: cache hints, `resultType`, the server's identity,
   * and no `execution` (tasks are an extension there, not offered on that revision).
   */
  readonly modernResult: { readonly tools: Tool[] };
}

/**
 * UTF-8 JSON of result objects serialized ahead of time. A `tools/list` of 500 tools is ~400 KB:
 * stringifying and encoding it again for every request (measured ~7 ms) would cost more than
 * everything else the request does.
 */
const PRESERIALIZED = new WeakMap<object, Buffer>();

/** The UTF-8 JSON of `value` when it was serialized ahead of time (a cached `tools/list` result). */
export function preserializedJson(value: unknown): Buffer | undefined {
  return typeof value === 'object' && value !== null ? PRESERIALIZED.get(value) : undefined;
}

const STATUS_TEXT: Record<Locale, { description: string; callId: string }> = {
  en: {
    description:
      'Answers the state of an earlier call by its callId: pending_approval, running, succeeded, failed, denied, expired or interrupted, with its result once there is one. Use it after a call answered APPROVAL_PENDING.',
    callId: 'The callId of the earlier call',
  },
  'zh-CN': {
    description:
      '按 callId 查询之前一次调用的状态（pending_approval、running、succeeded、failed、denied、expired、interrupted），有结果时一并返回。调用返回 APPROVAL_PENDING 后用它查看结果。',
    callId: '之前那次调用的 callId',
  },
};

function callStatusTool(locale: Locale): Tool {
  const text = STATUS_TEXT[locale];
  return {
    name: CALL_STATUS,
    title: locale === 'zh-CN' ? '查询调用状态' : 'Call status',
    description: text.description,
    inputSchema: {
      type: 'object',
      properties: { callId: { type: 'string', minLength: 1, maxLength: 200, description: text.callId } },
      required: ['callId'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A dynamic tool's input schema with the `$schema` its author declared, when that is 2020-12: the
 * platform's export drops `$schema` (every export is 2020-12, MCP's default dialect), but clients
 * and the conformance suite (SEP-1613) expect a declared dialect to survive `tools/list`. Any other
 * declared dialect was upgraded to 2020-12 on export and is rightly gone.
 */
function withDeclaredDialect(tool: EffectiveTool, exported: Tool['inputSchema']): Tool['inputSchema'] {
  const declared = (tool.contract.declaration.inputSchema as { $schema?: unknown }).$schema;
  return declared === DRAFT_2020_12 && tool.contract.declaration.dynamic
    ? { $schema: DRAFT_2020_12, ...exported }
    : exported;
}

/**
 * Builds `tools/list` answers, one per binding snapshot and locale. The cache is keyed by the
 * resolved binding object itself (a WeakMap): a new binding version, another tenant or another
 * agent type is another object, so an entry can never serve the wrong caller, and it goes away
 * with the snapshot. `tools/call` accepts exactly the names of the same list.
 */
export class McpToolLists {
  private readonly cache = new WeakMap<ResolvedAgentType, Map<string, McpToolList>>();

  /** @param tasks whether governed calls may run as MCP tasks (`execution.taskSupport: optional`). */
  constructor(private readonly tasks = false) {}

  of(agent: Agent, locale: Locale): McpToolList {
    let byLocale = this.cache.get(agent.binding);
    if (!byLocale) this.cache.set(agent.binding, (byLocale = new Map()));
    // The binding is shared by every principal; the tools its rules hide are this principal's.
    const hidden = agent.hiddenTools();
    const key = hidden.size ? `${locale}\u0000${[...hidden].sort().join('\u0000')}` : locale;
    let list = byLocale.get(key);
    if (!list) byLocale.set(key, (list = build(agent, locale, this.tasks)));
    return list;
  }
}

function build(agent: Agent, locale: Locale, tasks: boolean): McpToolList {
  // The spec lets a client ask for a task only where a tool says so; every governed call may park.
  const execution = tasks ? { execution: { taskSupport: 'optional' as const } } : {};
  const tools: Tool[] = [];
  const targets = new Map<string, McpToolTarget>();
  // Binding order: the map of bound tools keeps it.
  for (const t of agent.tools()) {
    const tool = exportTool(t, 'mcp', locale) as Tool;
    tools.push({ ...tool, inputSchema: withDeclaredDialect(t, tool.inputSchema), ...execution });
    targets.set(t.contract.name, { kind: 'tool' });
  }
  for (const meta of metaTools(agent, locale)) {
    // A bound tool of the same name wins; the meta-tool is then not offered.
    if (targets.has(meta.name)) continue;
    tools.push({
      name: meta.name,
      description: meta.description,
      inputSchema: meta.parameters as Tool['inputSchema'],
      annotations: meta.name === TOOL_SEARCH ? { readOnlyHint: true, openWorldHint: false } : {},
      ...(meta.name === TOOL_CALL ? execution : {}),
    });
    targets.set(meta.name, { kind: meta.name === TOOL_CALL ? 'call' : 'search' });
  }
  // Hidden by the principal's rules, yet reachable by name: the call answers POLICY_DENIED and why.
  for (const name of agent.hiddenTools()) if (!targets.has(name)) targets.set(name, { kind: 'tool' });
  if (!targets.has(CALL_STATUS)) {
    tools.push(callStatusTool(locale));
    targets.set(CALL_STATUS, { kind: 'status' });
  }
  const result = { tools };
  PRESERIALIZED.set(result, Buffer.from(JSON.stringify(result)));
  // Built on the first 2026-07-28 request only: a deployment whose clients all speak 2025
  // revisions serializes each list once, as before.
  let modern: { readonly tools: Tool[] } | undefined;
  return {
    tools,
    targets,
    result,
    get modernResult() {
      if (!modern) {
        modern = asModernResult({
          tools: tools.map(({ execution: _execution, ...tool }) => tool),
          ...CACHE_HINTS,
        });
        PRESERIALIZED.set(modern, Buffer.from(JSON.stringify(modern)));
      }
      return modern;
    },
  };
}
