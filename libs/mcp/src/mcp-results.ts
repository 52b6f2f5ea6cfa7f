import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  ErrorCode,
  isOk,
  type Envelope,
  type ErrorEnvelope,
  type Locale,
  type ToolCallResult,
  type ToolModelOutput,
} from '@toolgate/toolkit';
import { CALL_STATUS } from './mcp-tool-list.js';

type Content = CallToolResult['content'][number];

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A governed call's outcome as an MCP tool result. Success: `structuredContent` is the envelope's
 * data (the spec wants an object there, so other values go under `result`) and the text is what
 * the model is meant to read (`toModelOutput`, else the JSON of the data). Failure: `isError`
 * with the error envelope, so a model can read INVALID_INPUT and correct itself.
 */
export function toCallToolResult(result: ToolCallResult, locale: Locale): CallToolResult {
  const envelope = result.envelope;
  // What REST answers in X-Call-Id: the key to the audit trail and to GET /v1/calls/:callId.
  const _meta = { [CALL_ID_META]: result.callId };
  if (!isOk(envelope))
    return { ...errorResult({ ...envelope, callId: envelope.callId ?? result.callId }, locale), _meta };
  const data = envelope.data;
  return {
    content: result.modelOutput ? contentOf(result.modelOutput) : [{ type: 'text', text: json(data) }],
    ...(data === undefined ? {} : { structuredContent: isPlainObject(data) ? data : { result: data } }),
    _meta,
  };
}

/** The `_meta` key of a tool result that carries the call id. */
export const CALL_ID_META = 'toolgate/callId';

/** An envelope (a tool's or a meta-tool's) as an MCP result. */
export function envelopeResult(envelope: Envelope, locale: Locale): CallToolResult {
  if (!isOk(envelope)) return errorResult(envelope, locale);
  const data = envelope.data;
  return {
    content: [{ type: 'text', text: json(data) }],
    structuredContent: isPlainObject(data) ? data : { result: data },
  };
}

const PENDING_TEXT: Record<Locale, (callId: string) => string> = {
  en: (callId) =>
    `The call is waiting for a person's approval and has not run yet. Do not call it again: check back later with ${CALL_STATUS} {"callId":"${callId}"}, which answers its result once it is approved and run.`,
  'zh-CN': (callId) =>
    `该调用正在等待人工审批，尚未执行。请不要重复调用：稍后用 ${CALL_STATUS} {"callId":"${callId}"} 查询，审批通过并执行后会返回结果。`,
};

function errorResult(envelope: ErrorEnvelope, locale: Locale): CallToolResult {
  const lines = [`${envelope.code}: ${envelope.error}`, envelope.suggestedAction];
  if (envelope.code === ErrorCode.APPROVAL_PENDING && envelope.callId)
    lines.push(PENDING_TEXT[locale](envelope.callId));
  return {
    isError: true,
    content: [{ type: 'text', text: lines.filter(Boolean).join('\n') }],
    structuredContent: envelope as unknown as Record<string, unknown>,
  };
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
