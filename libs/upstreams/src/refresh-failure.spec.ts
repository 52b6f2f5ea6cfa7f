import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { OpenApiSourceError } from './openapi/openapi-source-error.js';
import { refreshFailureOf } from './refresh-failure.js';

describe('refreshFailureOf', () => {
  it.each([
    [
      new StreamableHTTPError(502, 'Error POSTing to endpoint: <h1>db_password=x</h1>'),
      'the server answered HTTP 502',
    ],
    [new McpError(-32603, 'internal: secret=abc'), 'the server answered JSON-RPC error -32603'],
    [
      new OpenApiSourceError('invalid', 'Unexpected token "<html>password=1"'),
      'the OpenAPI document is invalid',
    ],
    [
      new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
        params: { message: 'the OpenAPI document cannot be read: <html>' },
        details: { failure: 'unreachable' },
      }),
      'UPSTREAM_ERROR (unreachable)',
    ],
    [new SyntaxError('Unexpected token \'<\', "<html>token=abc" is not valid JSON'), 'SyntaxError'],
    [
      Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      'TypeError (ECONNREFUSED)',
    ],
  ])('says %s without the upstream text', (err, said) => {
    expect(refreshFailureOf(err)).toBe(said);
  });
});
