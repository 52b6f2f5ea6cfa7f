/** Typed calls of the compliance API (CONTRACT.md "Audit"). */
import { request, requestFile, withQuery } from './client';
import type { AuditEvent, AuditFilter, AuditPage, CallStory, IncompleteCall, Verification } from './types';

export const listAuditEvents = (
  filter: AuditFilter,
  page: { cursor?: string; limit: number },
  signal?: AbortSignal,
) => request<AuditPage>('GET', withQuery('/v1/audit/events', { ...filter, ...page }), { signal });

export const getAuditEvent = (id: string, signal?: AbortSignal) =>
  request<AuditEvent>('GET', `/v1/audit/events/${encodeURIComponent(id)}`, { signal });

export const getCallStory = (callId: string, signal?: AbortSignal) =>
  request<CallStory>('GET', `/v1/audit/calls/${encodeURIComponent(callId)}`, { signal });

export const listIncomplete = (signal?: AbortSignal) =>
  request<IncompleteCall[]>('GET', '/v1/audit/incomplete', { signal });

/** The filtered trail as a file, fetched with the key as a header. */
export const exportAudit = (format: 'csv' | 'jsonl', filter: AuditFilter) =>
  requestFile(withQuery('/v1/audit/export', { format, ...filter }));

export const verifyAudit = (query: { tenantId?: string; from?: string; to?: string }) =>
  request<Verification>('GET', withQuery('/v1/audit/verify', query));
