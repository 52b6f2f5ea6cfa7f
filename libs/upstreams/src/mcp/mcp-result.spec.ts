import { describe, expect, it } from 'vitest';
import { checkUpstreamUrl } from './mcp-upstream-client.js';
import { outcomeOfResult } from './mcp-result.js';

describe('MCP tool results as outcomes', () => {
  it('takes structuredContent as the data', () => {
    expect(outcomeOfResult({ content: [{ type: 'text', text: 'x' }], structuredContent: { n: 1 } })).toEqual({
      ok: true,
      data: { n: 1 },
    });
  });

  it('wraps text content as { text } when there is no structured content', () => {
    expect(
      outcomeOfResult({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({ ok: true, data: { text: 'a\nb' } });
  });

  it('turns isError into UPSTREAM_ERROR with the upstream text, cleaned of credentials and URLs', () => {
    const outcome = outcomeOfResult({
      isError: true,
      content: [{ type: 'text', text: 'denied for Bearer abcdef123456 at https://u:p@crm.internal/x' }],
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.envelope.code).toBe('UPSTREAM_ERROR');
    expect(outcome.envelope.error).toContain('denied');
    expect(outcome.envelope.error).not.toContain('abcdef123456');
    expect(outcome.envelope.error).not.toContain('crm.internal');
  });

  it('refuses non-http(s) upstream URLs', () => {
    expect(() => checkUpstreamUrl('file:///etc/passwd')).toThrow(/http or https/);
    expect(checkUpstreamUrl('https://crm.example/mcp').host).toBe('crm.example');
  });
});
