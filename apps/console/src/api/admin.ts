/** Typed calls of the admin API (CONTRACT.md "Admin") and `GET /v1/me`. */
import { request, requestFile, withQuery } from './client';
import type {
  ApiKeyView,
  BindingHistoryEntry,
  BindingPreview,
  BindingTool,
  BindingView,
  CatalogTool,
  CreatedKey,
  ImportResult,
  NewKey,
  Principal,
  Stats,
  Tenant,
} from './types';

const t = (id: string) => `/v1/admin/tenants/${encodeURIComponent(id)}`;

export const getMe = (key?: string, signal?: AbortSignal) =>
  request<Principal>('GET', '/v1/me', { key, signal });

export const listTools = (signal?: AbortSignal) =>
  request<CatalogTool[]>('GET', '/v1/admin/tools', { signal });

export const listTenants = (signal?: AbortSignal) =>
  request<Tenant[]>('GET', '/v1/admin/tenants', { signal });

export const createTenant = (body: { id: string; name: string; locale?: string }) =>
  request<Tenant>('POST', '/v1/admin/tenants', { body });

export const listBindings = (tenantId: string, signal?: AbortSignal) =>
  request<BindingView[]>('GET', `${t(tenantId)}/bindings`, { signal });

export const saveBindings = (
  tenantId: string,
  agentType: string,
  body: { version: number; tools: BindingTool[]; description?: string },
) => request<BindingView>('PUT', `${t(tenantId)}/agents/${encodeURIComponent(agentType)}/bindings`, { body });

export const previewBindings = (tenantId: string, agentType: string, tools: BindingTool[]) =>
  request<BindingPreview>('POST', `${t(tenantId)}/agents/${encodeURIComponent(agentType)}/bindings/preview`, {
    body: { tools },
  });

export const bindingHistory = (tenantId: string, agentType?: string, signal?: AbortSignal) =>
  request<BindingHistoryEntry[]>('GET', withQuery(`${t(tenantId)}/bindings/history`, { agentType }), {
    signal,
  });

export const exportTenantYaml = (tenantId: string) => requestFile(`${t(tenantId)}/export`);

export const importTenantYaml = (tenantId: string, yaml: string) =>
  request<ImportResult>('POST', `${t(tenantId)}/import`, { body: { yaml } });

export const listKeys = (signal?: AbortSignal) => request<ApiKeyView[]>('GET', '/v1/admin/keys', { signal });

export const createKey = (body: NewKey) => request<CreatedKey>('POST', '/v1/admin/keys', { body });

export const revokeKey = (id: string) =>
  request<unknown>('DELETE', `/v1/admin/keys/${encodeURIComponent(id)}`);

export const getStats = (query: { from: string; to: string; bucketMinutes: number }, signal?: AbortSignal) =>
  request<Stats>('GET', withQuery('/v1/admin/stats', query), { signal });
