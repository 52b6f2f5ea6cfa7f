/** Typed calls of the admin API (CONTRACT.md "Admin") and `GET /v1/me`. */
import { withQuery, type ApiClient } from './client';
import type {
  ToolCallCheck,
  ProcessingRecordEntry,
  ApiKeyView,
  BindingHistoryEntry,
  BindingPreview,
  BindingView,
  CatalogTool,
  CreatedKey,
  ImportResult,
  NewKey,
  PreviewBindingsBody,
  Principal,
  ReplaceBindingsBody,
  Stats,
  Tenant,
} from './types';

const t = (id: string) => `/v1/admin/tenants/${encodeURIComponent(id)}`;

export const getMe = (api: ApiClient, signal?: AbortSignal) =>
  api.request<Principal>('GET', '/v1/me', { signal });

export const listTools = (api: ApiClient, signal?: AbortSignal) =>
  api.request<CatalogTool[]>('GET', '/v1/admin/tools', { signal });

export const listTenants = (api: ApiClient, signal?: AbortSignal) =>
  api.request<Tenant[]>('GET', '/v1/admin/tenants', { signal });

export const createTenant = (api: ApiClient, body: { id: string; name: string; locale?: string }) =>
  api.request<Tenant>('POST', '/v1/admin/tenants', { body });

export const listBindings = (api: ApiClient, tenantId: string, signal?: AbortSignal) =>
  api.request<BindingView[]>('GET', `${t(tenantId)}/bindings`, { signal });

export const saveBindings = (
  api: ApiClient,
  tenantId: string,
  agentType: string,
  body: ReplaceBindingsBody,
) =>
  api.request<BindingView>('PUT', `${t(tenantId)}/agents/${encodeURIComponent(agentType)}/bindings`, {
    body,
  });

export const previewBindings = (
  api: ApiClient,
  tenantId: string,
  agentType: string,
  body: PreviewBindingsBody,
) =>
  api.request<BindingPreview>(
    'POST',
    `${t(tenantId)}/agents/${encodeURIComponent(agentType)}/bindings/preview`,
    { body },
  );

export const bindingHistory = (api: ApiClient, tenantId: string, agentType?: string, signal?: AbortSignal) =>
  api.request<BindingHistoryEntry[]>('GET', withQuery(`${t(tenantId)}/bindings/history`, { agentType }), {
    signal,
  });

export const exportTenantYaml = (api: ApiClient, tenantId: string) =>
  api.requestFile(`${t(tenantId)}/export`);

export const importTenantYaml = (api: ApiClient, tenantId: string, yaml: string) =>
  api.request<ImportResult>('POST', `${t(tenantId)}/import`, { body: { yaml } });

export const listKeys = (api: ApiClient, signal?: AbortSignal) =>
  api.request<ApiKeyView[]>('GET', '/v1/admin/keys', { signal });

export const createKey = (api: ApiClient, body: NewKey) =>
  api.request<CreatedKey>('POST', '/v1/admin/keys', { body });

export const revokeKey = (api: ApiClient, id: string) =>
  api.request<unknown>('DELETE', `/v1/admin/keys/${encodeURIComponent(id)}`);

export const getStats = (
  api: ApiClient,
  query: { from: string; to: string; bucketMinutes: number },
  signal?: AbortSignal,
) => api.request<Stats>('GET', withQuery('/v1/admin/stats', query), { signal });

/** What a call of a saved binding's tool with this input would meet (the bindings editor's "try it"). */
export const checkToolCall = (
  api: ApiClient,
  tenantId: string,
  agentType: string,
  toolName: string,
  body: { input: unknown; keyId?: string },
) =>
  api.request<ToolCallCheck>(
    'POST',
    `/v1/admin/tenants/${encodeURIComponent(tenantId)}/agent-types/${encodeURIComponent(agentType)}/tools/${encodeURIComponent(toolName)}/check`,
    { body },
  );

/** A tenant's processing records (PIPL 第55–56条) and the calls that sent classified fields to each recipient. */
export const listProcessingRecords = (api: ApiClient, tenantId: string, signal?: AbortSignal) =>
  api.request<ProcessingRecordEntry[]>(
    'GET',
    `/v1/admin/tenants/${encodeURIComponent(tenantId)}/processing-records`,
    { signal },
  );

/** The same records as a CSV file for Excel (UTF-8 with BOM), recorded as an export (ADR 048). */
export const exportProcessingRecords = (api: ApiClient, tenantId: string) =>
  api.requestFile(`/v1/admin/tenants/${encodeURIComponent(tenantId)}/processing-records/export`);
