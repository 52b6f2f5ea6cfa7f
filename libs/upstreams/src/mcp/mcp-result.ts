import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanErrorMessage, DEFAULT_LOCALE, errorEnvelope, ErrorCode } from '@toolgate/toolkit';
import type { UpstreamCallOutcome } from '../sources/tool-source.js';

/** The text parts of a tool result, joined (images and resources say what they are). */
function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n');
}

/**
 * An MCP tool result as a Toolgate outcome. The rule: `isError` is a failure of the tool, an
 * UPSTREAM_ERROR carrying the upstream's own text (cleaned of URLs and credentials); otherwise
 * `structuredContent` is the data when the server sent it (it is the machine-readable result the
 * spec defines), and else the text content becomes `{ text }` so data is always an object.
 */
export function outcomeOfResult(result: CallToolResult): UpstreamCallOutcome {
  if (result.isError) {
    const message = cleanErrorMessage(textOf(result) || 'the upstream tool reported an error');
    return {
      ok: false,
      envelope: errorEnvelope(
        ErrorCode.UPSTREAM_ERROR,
        DEFAULT_LOCALE,
        { message },
        { upstreamMessage: message },
      ),
    };
  }
  if (result.structuredContent !== undefined) return { ok: true, data: result.structuredContent };
  return { ok: true, data: { text: textOf(result) } };
}
