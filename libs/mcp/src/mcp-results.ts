import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  ErrorCode,
  isOk,
  mcpMessage,
  type Envelope,
  type ErrorEnvelope,
  type Locale,
  type ToolCallResult,
  type ToolModelOutput,
} from '@toolgate/toolkit';

type Content = CallToolResult['content'][number];

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A governed call's outcome as an MCP tool result. Success: `structuredContent` is the envelope's
 * data (the spec wants an object there, so other values go under `result`) and the text is what
 * the model is meant to read (`toModelOutput`, else the JSON of the data). Failure: see
 * `errorResult`. `_meta["toolgate/callId"]` is the call id either way.
 */
export function toCallToolResult(result: ToolCallResult, locale: Locale): CallToolResult {
  const envelope = result.envelope;
  // What REST answers in X-Call-Id: the key to the audit trail and to GET /v1/calls/:callId.
  if (!isOk(envelope)) return errorResult({ ...envelope, callId: envelope.callId ?? result.callId }, locale);
  const data = envelope.data;
  return {
    content: result.modelOutput ? contentOf(result.modelOutput) : [{ type: 'text', text: json(data) }],
    ...(data === undefined ? {} : { structuredContent: isPlainObject(data) ? data : { result: data } }),
    _meta: { [CALL_ID_META]: result.callId },
  };
}

/** The `_meta` key of a tool result that carries the call id. */
export const CALL_ID_META = 'toolgate/callId';

/** The `_meta` key of an `isError` tool result that carries the error envelope. */
export const ERROR_META = 'toolgate/error';

/** An envelope (a tool's or a meta-tool's) as an MCP result. */
export function envelopeResult(envelope: Envelope, locale: Locale): CallToolResult {
  if (!isOk(envelope)) return errorResult(envelope, locale);
  const data = envelope.data;
  return {
    content: [{ type: 'text', text: json(data) }],
    structuredContent: isPlainObject(data) ? data : { result: data },
  };
}

/** The error envelope of an `isError` result (`_meta["toolgate/error"]`), if it carries one. */
export function errorEnvelopeOf(result: CallToolResult): ErrorEnvelope | undefined {
  if (result.isError !== true) return undefined;
  const envelope = result._meta?.[ERROR_META];
  return isPlainObject(envelope) && typeof envelope.code === 'string'
    ? (envelope as unknown as ErrorEnvelope)
    : undefined;
}

/**
 * A failure as a tool result (ADR 024): `isError`, the envelope in `_meta["toolgate/error"]`, and
 * one text that carries what a model needs — code, message, what to do next, the call id — because
 * many clients (LangChain's adapters among them) hand the model the text and nothing else.
 * No `structuredContent`: it is the tool's output, and clients validate it against the tool's
 * `outputSchema` even on `isError` results (the TypeScript SDK's `callTool` throws -32602), so an
 * envelope there would make every failure of a tool with an output schema unreadable.
 * Suggested actions that name a REST route are replaced by what an MCP client can do.
 */
function errorResult(envelope: ErrorEnvelope, locale: Locale): CallToolResult {
  const mcpEnvelope = { ...envelope, suggestedAction: suggestedActionFor(envelope, locale) };
  const ids = [
    envelope.callId ? `callId: ${envelope.callId}` : '',
    envelope.approvalId ? `approvalId: ${envelope.approvalId}` : '',
  ].filter(Boolean);
  const lines = [`${envelope.code}: ${envelope.error}`, mcpEnvelope.suggestedAction, ids.join(' · ')];
  return {
    isError: true,
    content: [{ type: 'text', text: lines.filter(Boolean).join('\n') }],
    _meta: {
      [ERROR_META]: mcpEnvelope as unknown as Record<string, unknown>,
      ...(envelope.callId ? { [CALL_ID_META]: envelope.callId } : {}),
    },
  };
}

/** The MCP wording of a code whose catalog action names a REST route; the envelope's own otherwise. */
function suggestedActionFor(envelope: ErrorEnvelope, locale: Locale): string {
  const callId = envelope.callId;
  switch (envelope.code) {
    case ErrorCode.APPROVAL_PENDING:
      return callId ? mcpMessage('approvalPendingAction', locale, { callId }) : envelope.suggestedAction;
    case ErrorCode.IDEMPOTENCY_IN_PROGRESS:
      return callId
        ? mcpMessage('idempotencyInProgressAction', locale, { callId })
        : envelope.suggestedAction;
    case ErrorCode.TOOL_NOT_FOUND:
      return mcpMessage('toolNotFoundAction', locale);
    case ErrorCode.RATE_LIMITED: {
      const seconds = envelope.details?.retryAfterSeconds;
      return typeof seconds === 'number'
        ? mcpMessage('rateLimitedAction', locale, { retryAfterSeconds: seconds })
        : envelope.suggestedAction;
    }
    default:
      return envelope.suggestedAction;
  }
}

function contentOf(output: ToolModelOutput): Content[] {
  switch (output.type) {
    case 'text':
      return [{ type: 'text', text: output.value }];
    case 'json':
      return [{ type: 'text', text: json(output.value) }];
    case 'content':
      return output.value.map((part): Content => {
        if (part.type === 'text') return { type: 'text', text: part.text };
        if (part.mediaType.startsWith('image/'))
          return { type: 'image', data: part.data, mimeType: part.mediaType };
        if (part.mediaType.startsWith('audio/'))
          return { type: 'audio', data: part.data, mimeType: part.mediaType };
        return {
          type: 'resource',
          resource: { uri: 'toolgate://output/file', blob: part.data, mimeType: part.mediaType },
        };
      });
  }
}

function json(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}
