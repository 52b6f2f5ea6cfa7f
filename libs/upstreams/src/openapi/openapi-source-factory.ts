import { cleanErrorMessage, ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { UpstreamClientFactory } from '../upstream-connections.js';
import type { UpstreamClient } from '../sources/tool-source.js';
import { createOpenApiClient } from './openapi-client.js';
import { OpenApiSourceError } from './openapi-source-error.js';

/**
 * The `openapi` kind of upstream: `url` is the document's address, `baseUrl` where calls go.
 * Document failures become admin-readable envelopes: at registration a document that cannot be
 * used is the admin's input (400 INVALID_INPUT naming the failure), a service that cannot be
 * reached is 502 UPSTREAM_ERROR; after that, any failure to read the document is the upstream's
 * (502), and the imported tools stay as they were pinned.
 */
export const openApiClientFactory: UpstreamClientFactory = async (spec) => {
  let client: UpstreamClient;
  try {
    client = await createOpenApiClient({
      documentUrl: spec.url,
      baseUrl: spec.baseUrl ?? undefined,
      headers: spec.headers,
      timeoutMs: spec.timeoutMs,
      fetch: spec.fetchWith({}),
      onPlanChanged: spec.onToolsChanged,
    });
  } catch (err) {
    throw asToolgateError(err, 'registration');
  }
  return {
    listTools: (signal) =>
      client.listTools(signal).catch((err: unknown) => {
        throw asToolgateError(err, 'refresh');
      }),
    callTool: (name, args, options) => client.callTool(name, args, options),
    close: () => client.close(),
  };
};

function asToolgateError(err: unknown, when: 'registration' | 'refresh'): unknown {
  if (!(err instanceof OpenApiSourceError)) return err;
  if (when === 'registration' && err.failure !== 'unreachable') {
    const summary = `the OpenAPI document cannot be used (${err.failure}): ${cleanErrorMessage(err.message)}`;
    return new ToolgateError(ErrorCode.INVALID_INPUT, {
      params: { summary },
      details: { failure: err.failure, issues: [{ path: 'url', message: summary }] },
    });
  }
  return new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
    params: { message: `the OpenAPI document cannot be read: ${cleanErrorMessage(err.message)}` },
    details: { failure: err.failure },
  });
}
