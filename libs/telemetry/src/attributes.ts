/**
 * The attribute names Toolgate puts on its spans. One place, so dashboards and tests agree. What is
 * never an attribute (ADR 019): input or output values, prompts, messages, headers, secrets,
 * connector settings — only identifiers, levels, codes and durations.
 */
export const TraceAttr = {
  TENANT: 'toolgate.tenant',
  AGENT_TYPE: 'toolgate.agent_type',
  TOOL: 'toolgate.tool',
  IMPLEMENTATION: 'toolgate.implementation',
  RISK_LEVEL: 'toolgate.risk_level',
  FACE: 'toolgate.face',
  CALL_ID: 'toolgate.call_id',
  OUTCOME: 'toolgate.outcome',
  /** `none`, `pending` (the call parked), `approved` (a resumed call a person approved). */
  APPROVAL: 'toolgate.approval',
  APPROVAL_ID: 'toolgate.approval_id',
  DURATION_MS: 'toolgate.duration_ms',
  RUN_ID: 'toolgate.run_id',
  STEP: 'toolgate.step',
  MODEL: 'toolgate.model',
  AUDIT_EVENTS: 'toolgate.audit.events',
  UPSTREAM: 'toolgate.upstream',
  HTTP_METHOD: 'http.request.method',
  HTTP_ROUTE: 'http.route',
  HTTP_STATUS: 'http.response.status_code',
  SERVER_ADDRESS: 'server.address',
} as const;

/** The outcome attribute of a successful call; failures carry their error code. */
export const OUTCOME_OK = 'OK';

/** Span names, `toolgate.<what>`: low-cardinality, never a tool input. */
export const SpanName = {
  INVOKE: 'toolgate.invoke',
  MCP: 'toolgate.mcp',
  CALL: 'toolgate.call',
  APPROVAL_WAIT: 'toolgate.approval.wait',
  AUDIT_WRITE: 'toolgate.audit.write',
  RUN: 'toolgate.run',
  RUN_STEP: 'toolgate.run.step',
  MODEL_CALL: 'toolgate.model.call',
} as const;
