/** Typed calls of the upstream-servers admin API (`/v1/admin/tenants/:tenantId/upstreams`, issue 11). */
import type { ApiClient } from './client';
import type {
  ImportedUpstreamTool,
  ImportUpstreamToolsBody,
  RefreshUpstreamResult,
  RegisteredUpstream,
  RegisterUpstreamBody,
  ReviewUpstreamToolBody,
  Upstream,
  UpstreamDetail,
  UpstreamImportResult,
  UpstreamLiveTool,
  UpstreamToolDiff,
} from './types';

const base = (tenantId: string) => `/v1/admin/tenants/${encodeURIComponent(tenantId)}/upstreams`;
const one = (tenantId: string, name: string) => `${base(tenantId)}/${encodeURIComponent(name)}`;

export const listUpstreams = (api: ApiClient, tenantId: string, signal?: AbortSignal) =>
  api.request<Upstream[]>('GET', base(tenantId), { signal });

export const getUpstream = (api: ApiClient, tenantId: string, name: string, signal?: AbortSignal) =>
  api.request<UpstreamDetail>('GET', one(tenantId, name), { signal });

export const registerUpstream = (api: ApiClient, tenantId: string, body: RegisterUpstreamBody) =>
  api.request<RegisteredUpstream>('POST', base(tenantId), { body });

export const deleteUpstream = (api: ApiClient, tenantId: string, name: string) =>
  api.request<{ name: string; deleted: true }>('DELETE', one(tenantId, name));

export const listUpstreamTools = (api: ApiClient, tenantId: string, name: string, signal?: AbortSignal) =>
  api.request<UpstreamLiveTool[]>('GET', `${one(tenantId, name)}/tools`, { signal });

export const importUpstreamTools = (
  api: ApiClient,
  tenantId: string,
  name: string,
  body: ImportUpstreamToolsBody,
) => api.request<UpstreamImportResult>('POST', `${one(tenantId, name)}/import`, { body });

export const refreshUpstream = (api: ApiClient, tenantId: string, name: string) =>
  api.request<RefreshUpstreamResult>('POST', `${one(tenantId, name)}/refresh`);

export const getUpstreamToolDiff = (
  api: ApiClient,
  tenantId: string,
  name: string,
  tool: string,
  signal?: AbortSignal,
) =>
  api.request<UpstreamToolDiff>('GET', `${one(tenantId, name)}/tools/${encodeURIComponent(tool)}/diff`, {
    signal,
  });

export const reviewUpstreamTool = (
  api: ApiClient,
  tenantId: string,
  name: string,
  tool: string,
  body: ReviewUpstreamToolBody,
) =>
  api.request<ImportedUpstreamTool>(
    'POST',
    `${one(tenantId, name)}/tools/${encodeURIComponent(tool)}/review`,
    { body },
  );
