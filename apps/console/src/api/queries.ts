/**
 * The console's reads as cached queries. Each key starts with the endpoint and ends with its
 * parameters, so two screens asking the same thing share one answer, and a mutation invalidates by
 * prefix (`queryKeys.tenant(id)` covers that tenant's bindings and their history).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { bindingHistory, getStats, listBindings, listKeys, listTenants, listTools } from './admin';
import { getApprovalContext, listApprovals } from './approvals';
import { useApiClient } from './ApiClientContext';
import { getCallStory, listAuditCalls, listAuditEvents, listAuditPrincipals } from './audit';
import { getRun, listRuns } from './runs';
import { getUpstream, getUpstreamToolDiff, listUpstreams, listUpstreamTools } from './upstreams';
import type { ApprovalStatus, AuditCallFilter, AuditFilter, RunFilter, RunStatus } from './types';

type StatsQuery = { from: string; to: string; bucketMinutes: number };
type AuditPaging = { cursor?: string; limit: number };
type RunPaging = { cursor?: string; limit: number };

export const queryKeys = {
  tools: ['/v1/admin/tools'] as const,
  tenants: ['/v1/admin/tenants'] as const,
  tenant: (tenantId: string) => ['/v1/admin/tenants', tenantId] as const,
  /** Every upstream answer of a tenant (list, details, live tools, diffs): one prefix to invalidate. */
  upstreams: (tenantId: string) => ['/v1/admin/tenants', tenantId, 'upstreams'] as const,
  upstream: (tenantId: string, name: string) => ['/v1/admin/tenants', tenantId, 'upstreams', name] as const,
  upstreamTools: (tenantId: string, name: string) =>
    ['/v1/admin/tenants', tenantId, 'upstreams', name, 'tools'] as const,
  upstreamDiff: (tenantId: string, name: string, tool: string) =>
    ['/v1/admin/tenants', tenantId, 'upstreams', name, 'diff', tool] as const,
  bindings: (tenantId: string) => ['/v1/admin/tenants', tenantId, 'bindings'] as const,
  bindingHistory: (tenantId: string, agentType: string) =>
    ['/v1/admin/tenants', tenantId, 'bindings/history', { agentType }] as const,
  keys: ['/v1/admin/keys'] as const,
  stats: (query: StatsQuery) => ['/v1/admin/stats', query] as const,
  approvals: ['/v1/approvals'] as const,
  approvalsWith: (status: ApprovalStatus) => ['/v1/approvals', { status }] as const,
  approvalContext: (approvalId: string) => ['/v1/approvals', approvalId, 'context'] as const,
  auditEvents: (filter: AuditFilter, paging: AuditPaging) => ['/v1/audit/events', filter, paging] as const,
  callStory: (callId: string) => ['/v1/audit/calls', callId] as const,
  auditCalls: (filter: AuditCallFilter, paging: AuditPaging) => ['/v1/audit/calls', filter, paging] as const,
  auditPrincipals: ['/v1/audit/principals'] as const,
  runs: ['/v1/runs'] as const,
  runList: (filter: RunFilter, paging: RunPaging) => ['/v1/runs', { ...filter, ...paging }] as const,
  run: (runId: string) => ['/v1/runs', runId] as const,
};

export function useToolsQuery() {
  const api = useApiClient();
  return useQuery({ queryKey: queryKeys.tools, queryFn: ({ signal }) => listTools(api, signal) });
}

export function useTenantsQuery(enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.tenants,
    queryFn: ({ signal }) => listTenants(api, signal),
    enabled,
  });
}

export function useBindingsQuery(tenantId: string | null | undefined, enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.bindings(tenantId ?? ''),
    queryFn: ({ signal }) => listBindings(api, tenantId ?? '', signal),
    enabled: enabled && Boolean(tenantId),
  });
}

export function useBindingHistoryQuery(tenantId: string, agentType: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.bindingHistory(tenantId, agentType),
    queryFn: ({ signal }) => bindingHistory(api, tenantId, agentType, signal),
  });
}

/** The API keys; `enabled` false for viewers the API would refuse (they get no list, not an error). */
export function useKeysQuery(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: queryKeys.keys, queryFn: ({ signal }) => listKeys(api, signal), enabled });
}

/** Stats of a time range; the previous range stays on screen while the next one loads. */
export function useStatsQuery(query: StatsQuery) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.stats(query),
    queryFn: ({ signal }) => getStats(api, query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The inbox of one status, polled every `pollMs` while the tab is visible. */
export function useApprovalsQuery(status: ApprovalStatus, pollMs: number) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.approvalsWith(status),
    queryFn: ({ signal }) => listApprovals(api, status, signal),
    refetchInterval: pollMs,
  });
}

/** One page of the trail; the page on screen stays there while the next one loads. */
export function useAuditEventsQuery(filter: AuditFilter, paging: AuditPaging) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.auditEvents(filter, paging),
    queryFn: ({ signal }) => listAuditEvents(api, filter, paging, signal),
    placeholderData: keepPreviousData,
  });
}

/** Refreshed while the approval is open, so the outcome shows once the approved call has run. */
export function useApprovalContextQuery(approvalId: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.approvalContext(approvalId),
    queryFn: ({ signal }) => getApprovalContext(api, approvalId, signal),
    refetchInterval: (q) => {
      const state = q.state.data?.call?.state;
      return !state || state === 'pending_approval' || state === 'running' ? 3_000 : false;
    },
  });
}

export function useAuditCallsQuery(filter: AuditCallFilter, paging: AuditPaging) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.auditCalls(filter, paging),
    queryFn: ({ signal }) => listAuditCalls(api, filter, paging, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAuditPrincipalsQuery(enabled: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.auditPrincipals,
    queryFn: ({ signal }) => listAuditPrincipals(api, signal),
    enabled,
    staleTime: 60_000,
  });
}

export function useCallStoryQuery(callId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.callStory(callId ?? ''),
    queryFn: ({ signal }) => getCallStory(api, callId ?? '', signal),
    enabled: callId !== null,
  });
}

/** How often a run still under way is asked for news (the list too, while it shows one). */
export const RUN_POLL_MS = 2000;

/** A run is under way while it runs or waits for an approval; then its page stops polling. */
export const isRunLive = (status: RunStatus) => status === 'running' || status === 'awaiting_approval';

/** One page of runs; polled while a run on it is still under way. */
export function useRunsQuery(filter: RunFilter, paging: RunPaging) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.runList(filter, paging),
    queryFn: ({ signal }) => listRuns(api, filter, paging, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((run) => isRunLive(run.status)) ? RUN_POLL_MS : false,
  });
}

/** One run with its steps; polled until it has finished. */
export function useRunQuery(runId: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: ({ signal }) => getRun(api, runId, signal),
    refetchInterval: (query) =>
      query.state.data && isRunLive(query.state.data.status) ? RUN_POLL_MS : false,
  });
}

/** The upstream servers of a tenant, with their tool counts. */
export function useUpstreamsQuery(tenantId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...queryKeys.upstreams(tenantId ?? ''), 'list'],
    queryFn: ({ signal }) => listUpstreams(api, tenantId ?? '', signal),
    enabled: Boolean(tenantId),
  });
}

/** One upstream server and the tools imported from it (status, risk, review). */
export function useUpstreamQuery(tenantId: string, name: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.upstream(tenantId, name),
    queryFn: ({ signal }) => getUpstream(api, tenantId, name, signal),
  });
}

/**
 * The tools the server lists right now (the gateway asks it on every call). No retries: an
 * unreachable server should say so at once, not after three slow attempts.
 */
export function useUpstreamToolsQuery(tenantId: string, name: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.upstreamTools(tenantId, name),
    queryFn: ({ signal }) => listUpstreamTools(api, tenantId, name, signal),
    retry: false,
  });
}

/** Pinned and pending definition of an imported tool; `tool` null while no review is open. */
export function useUpstreamDiffQuery(tenantId: string, name: string, tool: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: queryKeys.upstreamDiff(tenantId, name, tool ?? ''),
    queryFn: ({ signal }) => getUpstreamToolDiff(api, tenantId, name, tool ?? '', signal),
    enabled: tool !== null,
  });
}
