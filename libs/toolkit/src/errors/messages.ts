import { ErrorCode } from './error-codes.js';

/** The two languages every platform message exists in. */
export type Locale = 'zh-CN' | 'en';
export const DEFAULT_LOCALE: Locale = 'zh-CN';

interface CatalogEntry {
  error: string;
  suggestedAction: string;
}
type Catalog = Record<ErrorCode, CatalogEntry>;

/**
 * The one message catalog. `{name}` placeholders are filled from the error's params.
 * The zh-CN timeout texts are those of docs/tool-design-rules.md §A3 (`工具调用超时` / `缩小查询范围或重试`).
 */
const CATALOG: Record<Locale, Catalog> = {
  'zh-CN': {
    INVALID_INPUT: {
      error: '输入不符合参数定义：{summary}',
      suggestedAction: '按 details.issues 修正参数后重试',
    },
    TIMEOUT: { error: '工具调用超时', suggestedAction: '缩小查询范围或重试' },
    UPSTREAM_ERROR: { error: '工具执行失败：{message}', suggestedAction: '检查输入是否正确，或稍后重试' },
    OUTPUT_INVALID: {
      error: '工具返回的结果不合法：{message}',
      suggestedAction: '这是工具实现的问题，请联系工具维护者',
    },
    APPROVAL_PENDING: {
      error: '该调用需要人工审批，已挂起等待审批人决定',
      suggestedAction: '等待审批后通过 GET /v1/calls/{callId} 查询结果',
    },
    APPROVAL_DENIED: {
      error: '审批人拒绝了该调用，工具未执行',
      suggestedAction: '换一种做法，或与审批人沟通后重新发起',
    },
    APPROVAL_EXPIRED: { error: '审批已过期，工具未执行', suggestedAction: '重新发起调用以再次申请审批' },
    UNAUTHENTICATED: {
      error: '缺少、未知或已吊销的 API 密钥',
      suggestedAction: '在 Authorization 头中提供有效的 Bearer 密钥',
    },
    FORBIDDEN: { error: '当前密钥的角色或租户无权执行该操作', suggestedAction: '使用具有相应角色的密钥' },
    NOT_FOUND: { error: '请求的资源不存在：{resource}', suggestedAction: '检查标识符是否正确' },
    TOOL_NOT_FOUND: {
      error: '工具 {tool} 不存在或未绑定到该智能体',
      suggestedAction: '通过 GET /v1/agents/{agentType}/tools 查看可用工具',
    },
    TOOL_QUARANTINED: {
      error: '工具 {tool} 的定义在上游发生了变化，已被隔离，等待管理员审核',
      suggestedAction: '请租户管理员在控制台查看该工具定义的变更并审核（接受或继续阻止）',
    },
    POLICY_DENIED: {
      error: '租户规则 {rule} 拒绝了对工具 {tool} 的调用：{reason}',
      suggestedAction: '按规则给出的原因调整参数或换一种做法；如认为规则有误，请联系租户管理员',
    },
    IDEMPOTENCY_CONFLICT: {
      error: '该幂等键已用于不同的输入',
      suggestedAction: '为新的请求使用新的 Idempotency-Key',
    },
    IDEMPOTENCY_IN_PROGRESS: {
      error: '使用该幂等键的调用仍在进行中',
      suggestedAction: '稍后用同一个 Idempotency-Key 重试，或通过 GET /v1/calls/{callId} 查询',
    },
    VERSION_CONFLICT: {
      error: '绑定已被他人修改（当前版本 {currentVersion}）',
      suggestedAction: '重新加载最新版本，合并修改后再保存',
    },
    ALREADY_EXISTS: { error: '{resource} 已存在', suggestedAction: '换一个标识符，或修改已有的资源' },
    PAYLOAD_TOO_LARGE: { error: '请求体超过上限 {limitBytes} 字节', suggestedAction: '缩小请求体后重试' },
    RATE_LIMITED: { error: '调用配额已用完：{quota}', suggestedAction: '等待 Retry-After 秒后重试' },
    AUDIT_UNAVAILABLE: {
      error: '审计存储不可用，为保证可追溯，该调用未执行',
      suggestedAction: '稍后重试；工具未被执行，重试是安全的',
    },
    DATA_EXPORT_BLOCKED: {
      error:
        '该调用会把受保护的个人信息发送到中国大陆以外的接收方 {recipient}（{region}），租户未声明出境的合法依据，已拒绝',
      suggestedAction:
        '在租户文件 dataProtection.recipients.{recipient}.crossBorder 中声明出境依据（安全评估、标准合同或认证），或改用境内接收方',
    },
    AUDIT_CHAIN_BROKEN: {
      error: '审计链校验未通过，未签署检查点：{summary}',
      suggestedAction: '用 GET /v1/audit/verify 找到第一个被改动的事件，并通知安全团队',
    },
    RETENTION_BELOW_FLOOR: {
      error: '审计日志保留 {days} 天低于平台下限 {floor} 天',
      suggestedAction:
        '保留天数至少设为 {floor} 天（网络安全法要求网络日志留存不少于六个月；下限由平台的 audit.retention.minimumDays 与合规配置决定）',
    },
    DUTIES_SEPARATED: {
      error: '等保三员分立：{act}是{role}的职责，{heldRole}不能执行',
      suggestedAction: '使用{role}的密钥，或以{role}身份登录后再操作',
    },
    ROLES_CONFLICT: {
      error: '等保三员分立：一人只能担任系统管理员、安全管理员、审计管理员之一，{person}已是{heldRole}',
      suggestedAction: '将{role}交给另一人，或先撤销其{heldRole}的密钥或角色规则',
    },
    CONNECTOR_NOT_CONFIGURED: {
      error: '租户未配置连接器 {connector}',
      suggestedAction: '请管理员在租户配置中补充该连接器',
    },
    NOT_READY: {
      error: '服务尚未就绪：{reason}',
      suggestedAction: '稍后重试；负载均衡器应暂时不向该实例转发流量',
    },
    INTERNAL_ERROR: {
      error: '服务器内部错误',
      suggestedAction: '稍后重试；若持续出现，请携带 X-Request-Id 联系管理员',
    },
    MODEL_UNAVAILABLE: {
      error: '模型服务不可用：{reason}',
      suggestedAction: '稍后重试；若持续出现，请管理员检查模型服务的地址和状态',
    },
    MODEL_REJECTED: {
      error: '模型服务拒绝了请求：{reason}',
      suggestedAction: '请管理员检查模型名称和 API 密钥配置',
    },
    STEP_LIMIT: {
      error: '智能体在 {maxSteps} 步内没有完成',
      suggestedAction: '把问题拆小，或请管理员调高该智能体类型的 maxSteps',
    },
    DEADLINE_EXCEEDED: {
      error: '运行超过了 {deadlineMs} 毫秒的时限',
      suggestedAction: '把问题拆小后重试，或请管理员调高 deadlineMs',
    },
    BUDGET_EXCEEDED: {
      error: 'Token 预算已用完：{budget}',
      suggestedAction: '缩短问题或会话，或请管理员调高 tokenBudget',
    },
    RUN_CANCELLED: { error: '运行已被取消', suggestedAction: '如仍需要，请重新发起运行' },
  },
  en: {
    INVALID_INPUT: {
      error: 'The input is invalid: {summary}',
      suggestedAction: 'Fix the fields listed in details.issues and call again',
    },
    TIMEOUT: { error: 'The tool call timed out', suggestedAction: 'Narrow the query or try again' },
    UPSTREAM_ERROR: {
      error: 'The tool failed: {message}',
      suggestedAction: 'Check the input, or try again later',
    },
    OUTPUT_INVALID: {
      error: 'The tool returned an invalid result: {message}',
      suggestedAction: "This is a defect in the tool; tell the tool's maintainers",
    },
    APPROVAL_PENDING: {
      error: 'This call needs human approval and is parked until an approver decides',
      suggestedAction: 'Wait for the decision, then read GET /v1/calls/{callId}',
    },
    APPROVAL_DENIED: {
      error: 'An approver denied this call; the tool did not run',
      suggestedAction: 'Try another approach, or talk to the approver before asking again',
    },
    APPROVAL_EXPIRED: {
      error: 'The approval expired; the tool did not run',
      suggestedAction: 'Invoke the tool again to ask for a new approval',
    },
    UNAUTHENTICATED: {
      error: 'Missing, unknown or revoked API key',
      suggestedAction: 'Send a valid key as Authorization: Bearer <key>',
    },
    FORBIDDEN: {
      error: "The key's role or tenant does not allow this",
      suggestedAction: 'Use a key with the required role',
    },
    NOT_FOUND: { error: 'Not found: {resource}', suggestedAction: 'Check the identifier' },
    TOOL_NOT_FOUND: {
      error: 'Tool {tool} does not exist or is not bound to this agent',
      suggestedAction: 'List the available tools with GET /v1/agents/{agentType}/tools',
    },
    TOOL_QUARANTINED: {
      error: 'Tool {tool} changed its definition upstream and is quarantined until an admin reviews it',
      suggestedAction:
        'Ask a tenant admin to review the changed definition in the console (accept it or keep it blocked)',
    },
    POLICY_DENIED: {
      error: "The tenant's rule {rule} refused this call of {tool}: {reason}",
      suggestedAction:
        "Change the input or the approach as the rule's reason says; if the rule seems wrong, ask a tenant admin",
    },
    IDEMPOTENCY_CONFLICT: {
      error: 'This idempotency key was already used with different input',
      suggestedAction: 'Use a new Idempotency-Key for a new request',
    },
    IDEMPOTENCY_IN_PROGRESS: {
      error: 'The call with this idempotency key is still in progress',
      suggestedAction: 'Retry later with the same Idempotency-Key, or read GET /v1/calls/{callId}',
    },
    VERSION_CONFLICT: {
      error: 'The bindings were changed by someone else (current version {currentVersion})',
      suggestedAction: 'Reload the latest version, merge your change and save again',
    },
    ALREADY_EXISTS: {
      error: '{resource} already exists',
      suggestedAction: 'Choose another identifier, or change the existing one',
    },
    PAYLOAD_TOO_LARGE: {
      error: 'The request body exceeds {limitBytes} bytes',
      suggestedAction: 'Send a smaller body',
    },
    RATE_LIMITED: {
      error: 'Quota exhausted: {quota}',
      suggestedAction: 'Retry after the number of seconds in Retry-After',
    },
    AUDIT_UNAVAILABLE: {
      error: 'The audit store is unavailable, so the call was not run',
      suggestedAction: 'Try again later; the tool did not run, so retrying is safe',
    },
    DATA_EXPORT_BLOCKED: {
      error:
        'Refused: the call would send protected personal information to {recipient} ({region}), outside mainland China, and the tenant declares no legal basis for that transfer',
      suggestedAction:
        'Declare the basis (security assessment, standard contract or certification) in the tenant file under dataProtection.recipients.{recipient}.crossBorder, or use a recipient in mainland China',
    },
    AUDIT_CHAIN_BROKEN: {
      error: 'The audit chain does not verify, so no checkpoint was signed: {summary}',
      suggestedAction: 'Run GET /v1/audit/verify to find the first altered event, and alert security',
    },
    RETENTION_BELOW_FLOOR: {
      error: 'An audit retention of {days} days is below the platform floor of {floor} days',
      suggestedAction:
        "Keep the trail at least {floor} days (the floor is the platform's audit.retention.minimumDays, raised to 180 by the dengbao3 profile: network logs are kept at least six months)",
    },
    DUTIES_SEPARATED: {
      error:
        'Separation of duties (dengbao3 profile): {act} is the {role}’s duty; a {heldRole} may not do it',
      suggestedAction: 'Use a {role} key, or sign in as a {role}',
    },
    ROLES_CONFLICT: {
      error:
        'Separation of duties (dengbao3 profile): one person holds one of system_admin, security_admin and audit_admin, and {person} is a {heldRole} already',
      suggestedAction: 'Give the {role} to another person, or first revoke their {heldRole} key or role rule',
    },
    CONNECTOR_NOT_CONFIGURED: {
      error: 'The tenant has no connector {connector} configured',
      suggestedAction: "Ask an admin to add the connector to the tenant's configuration",
    },
    NOT_READY: {
      error: 'Not ready: {reason}',
      suggestedAction: 'Try again shortly; load balancers should route elsewhere meanwhile',
    },
    INTERNAL_ERROR: {
      error: 'Internal server error',
      suggestedAction: 'Try again later; if it persists, report the X-Request-Id to an admin',
    },
    MODEL_UNAVAILABLE: {
      error: 'The model service is unavailable: {reason}',
      suggestedAction:
        "Try again later; if it persists, ask an admin to check the model provider's address and health",
    },
    MODEL_REJECTED: {
      error: 'The model service refused the request: {reason}',
      suggestedAction: "Ask an admin to check the model name and the provider's API key",
    },
    STEP_LIMIT: {
      error: 'The agent did not finish within {maxSteps} steps',
      suggestedAction: "Ask a narrower question, or ask an admin to raise the agent type's maxSteps",
    },
    DEADLINE_EXCEEDED: {
      error: 'The run went past its {deadlineMs} ms deadline',
      suggestedAction: 'Ask a narrower question, or ask an admin to raise deadlineMs',
    },
    BUDGET_EXCEEDED: {
      error: 'The token budget is spent: {budget}',
      suggestedAction: 'Shorten the question or the session, or ask an admin to raise tokenBudget',
    },
    RUN_CANCELLED: {
      error: 'The run was cancelled',
      suggestedAction: 'Start a new run if it is still needed',
    },
  },
};

/** Texts the MCP face says where the catalog's wording would send a model to a REST route it cannot call. */
export type McpMessage =
  | 'approvalPendingAction'
  | 'toolNotFoundAction'
  | 'idempotencyInProgressAction'
  | 'rateLimitedAction'
  | 'unknownTool'
  | 'noTaskSupport'
  | 'originNotAllowed'
  | 'originNotAllowedAction';

/**
 * The MCP face's texts (libs/mcp): suggested actions that name what an MCP client can do (the
 * `toolgate_call_status` tool, tasks, `tools/list`) instead of a REST URL, and its protocol errors.
 * `{name}` placeholders as in the catalog.
 */
const MCP_MESSAGES: Record<Locale, Record<McpMessage, string>> = {
  'zh-CN': {
    approvalPendingAction:
      '不要再次调用该工具：调用已挂起，不会丢失。稍后调用 toolgate_call_status {"callId":"{callId}"} 查询，审批通过并执行后它会返回结果（支持 MCP 任务的客户端可以带 task 参数调用，再用 tasks/result 等待结果）',
    toolNotFoundAction: '用 tools/list 查看该智能体可用的工具',
    idempotencyInProgressAction: '稍后用 toolgate_call_status {"callId":"{callId}"} 查询该调用',
    rateLimitedAction: '等待 {retryAfterSeconds} 秒后再调用',
    unknownTool: '未知工具：{tool}（不是该智能体类型的工具；tools/list 列出它的全部工具）',
    noTaskSupport: '{tool} 不支持以任务方式调用',
    originNotAllowed: '该来源（Origin）的网页不允许调用此 MCP 服务（防 DNS 重绑定）',
    originNotAllowedAction:
      '不要从网页调用；如确需从某个网页来源调用，请平台管理员把它加入 mcp.allowedOrigins',
  },
  en: {
    approvalPendingAction:
      'Do not call the tool again: the call is parked, not lost. Check back later with toolgate_call_status {"callId":"{callId}"}, which answers its result once it is approved and run (clients with MCP tasks can call with a task and wait with tasks/result instead)',
    toolNotFoundAction: 'List the tools this agent has with tools/list',
    idempotencyInProgressAction: 'Check the call later with toolgate_call_status {"callId":"{callId}"}',
    rateLimitedAction: 'Wait {retryAfterSeconds} s before calling again',
    unknownTool: 'Unknown tool: {tool} (not a tool of this agent type; tools/list shows all of its tools)',
    noTaskSupport: '{tool} does not support task-augmented calls',
    originNotAllowed: 'Web pages of this Origin may not call this MCP server (DNS rebinding protection)',
    originNotAllowedAction:
      'Call it from an agent, not from a web page; if a page of this origin must call it, ask a platform admin to add the origin to mcp.allowedOrigins',
  },
};

/** An MCP face text in a locale, placeholders filled. */
export function mcpMessage(
  key: McpMessage,
  locale: Locale,
  params?: Readonly<Record<string, unknown>>,
): string {
  return interpolate((MCP_MESSAGES[locale] ?? MCP_MESSAGES[DEFAULT_LOCALE])[key], params);
}

/** Fills `{name}` placeholders; unknown placeholders are left visible rather than silently dropped. */
export function interpolate(template: string, params: Readonly<Record<string, unknown>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    params[key] === undefined ? whole : String(params[key]),
  );
}

/** The catalog text of a code in a locale. */
export function catalogMessage(
  code: ErrorCode,
  locale: Locale,
  params?: Readonly<Record<string, unknown>>,
): CatalogEntry {
  const entry = (CATALOG[locale] ?? CATALOG[DEFAULT_LOCALE])[code];
  return {
    error: interpolate(entry.error, params),
    suggestedAction: interpolate(entry.suggestedAction, params),
  };
}

/**
 * Picks the best supported locale from an `Accept-Language` header value.
 * @example resolveLocale('en-US,en;q=0.9', 'zh-CN') // 'en'
 */
export function resolveLocale(acceptLanguage: string | undefined | null, fallback: Locale): Locale {
  if (!acceptLanguage) return fallback;
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().split(';');
      const q = rest.find((p) => p.trim().startsWith('q='));
      return { tag: (tag ?? '').toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((l) => l.tag && !Number.isNaN(l.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en';
  }
  return fallback;
}
