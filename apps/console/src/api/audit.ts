/** Typed calls of the compliance API (CONTRACT.md "Audit"). */
import { withQuery, type ApiClient } from './client';
import type {
  AuditCallFilter,
  AuditCallPage,
  AuditEvent,
  AuditFilter,
  AuditPage,
  AuditPrincipal,
  AuditSinks,
  CallStory,
  IncompleteCall,
  VerifyJob,
} from './types';

export const listAuditCalls = (
  api: ApiClient,
  filter: AuditCallFilter,
  page: { cursor?: string; limit: number },
  signal?: AbortSignal,
) => api.request<AuditCallPage>('GET', withQuery('/v1/audit/calls', { ...filter, ...page }), { signal });

/** The names of the keys and people in the trail (auditors may not list keys). */
export const listAuditPrincipals = (api: ApiClient, signal?: AbortSignal) =>
  api.request<AuditPrincipal[]>('GET', '/v1/audit/principals', { signal });

export const listAuditEvents = (
  api: ApiClient,
  filter: AuditFilter,
  page: { cursor?: string; limit: number },
  signal?: AbortSignal,
) => api.request<AuditPage>('GET', withQuery('/v1/audit/events', { ...filter, ...page }), { signal });

export const getAuditEvent = (api: ApiClient, id: string, signal?: AbortSignal) =>
  api.request<AuditEvent>('GET', `/v1/audit/events/${encodeURIComponent(id)}`, { signal });

export const getCallStory = (api: ApiClient, callId: string, signal?: AbortSignal) =>
  api.request<CallStory>('GET', `/v1/audit/calls/${encodeURIComponent(callId)}`, { signal });

export const listIncomplete = (api: ApiClient, signal?: AbortSignal) =>
  api.request<IncompleteCall[]>('GET', '/v1/audit/incomplete', { signal });

/** The filtered trail as a file, fetched with the key as a header. */
export const exportAudit = (api: ApiClient, format: 'csv' | 'jsonl', filter: AuditFilter) =>
  api.requestFile(withQuery('/v1/audit/export', { format, ...filter }));

/** A full verification in the background (one tenant, or every tenant the auditor reads). */
export const startVerifyJob = (api: ApiClient, tenantId?: string) =>
  api.request<VerifyJob>('POST', '/v1/audit/verify-jobs', { body: tenantId ? { tenantId } : {} });

export const getVerifyJob = (api: ApiClient, id: string, signal?: AbortSignal) =>
  api.request<VerifyJob>('GET', `/v1/audit/verify-jobs/${encodeURIComponent(id)}`, { signal });

/** The SIEM sinks and how far each is (platform auditors and admins). */
export const listAuditSinks = (api: ApiClient, signal?: AbortSignal) =>
  api.request<AuditSinks>('GET', '/v1/audit/sinks', { signal });
