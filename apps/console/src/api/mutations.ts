/**
 * The console's writes. Each one, once it succeeds, invalidates the queries whose answer it
 * changed; the screens showing them refetch in the background (no spinner over data already shown).
 */
import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { createKey, createTenant, importTenantYaml, previewBindings, revokeKey, saveBindings } from './admin';
import { useApiClient } from './ApiClientContext';
import { approve, deny } from './approvals';
import { queryKeys } from './queries';
import { cancelRun } from './runs';
import type {
  ImportUpstreamToolsBody,
  NewKey,
  PreviewBindingsBody,
  RegisterUpstreamBody,
  ReplaceBindingsBody,
  ReviewUpstreamToolBody,
} from './types';
import {
  deleteUpstream,
  importUpstreamTools,
  refreshUpstream,
  registerUpstream,
  reviewUpstreamTool,
} from './upstreams';

/**
 * Marks answers stale and refetches the ones on screen. Not awaited: the write's caller goes on
 * (closes its dialog, says "saved") while the lists catch up.
 */
function invalidate(cache: QueryClient, ...keys: QueryKey[]): void {
  for (const queryKey of keys) void cache.invalidateQueries({ queryKey });
}

/** The effective tools and problems of a draft; nothing is stored, so nothing is invalidated. */
export function usePreviewBindings(tenantId: string, agentType: string) {
  const api = useApiClient();
  return useMutation({
    mutationFn: (body: PreviewBindingsBody) => previewBindings(api, tenantId, agentType, body),
  });
}

/** A new binding version: the tenant's bindings and history change, and so does the catalog's `boundBy`. */
export function useSaveBindings(tenantId: string, agentType: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplaceBindingsBody) => saveBindings(api, tenantId, agentType, body),
    onSuccess: () => invalidate(cache, queryKeys.tenant(tenantId), queryKeys.tools),
  });
}

export function useCreateTenant() {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: string; name: string; locale?: string }) => createTenant(api, body),
    onSuccess: () => invalidate(cache, queryKeys.tenants),
  });
}

/** A tenant file applied: tenants, their bindings and history, and the catalog's `boundBy`. */
export function useImportTenantYaml(tenantId: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (yaml: string) => importTenantYaml(api, tenantId, yaml),
    onSuccess: () => invalidate(cache, queryKeys.tenants, queryKeys.tools),
  });
}

export function useCreateKey() {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (body: NewKey) => createKey(api, body),
    onSuccess: () => invalidate(cache, queryKeys.keys),
  });
}

export function useRevokeKey() {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeKey(api, id),
    onSuccess: () => invalidate(cache, queryKeys.keys),
  });
}

/** Approve or deny: every inbox tab and the overview's pending count change. */
export function useDecideApproval() {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (d: { approvalId: string; decision: 'approve' | 'deny'; comment?: string }) =>
      d.decision === 'approve'
        ? approve(api, d.approvalId, d.comment)
        : deny(api, d.approvalId, d.comment ?? ''),
    onSuccess: () => invalidate(cache, queryKeys.approvals, ['/v1/admin/stats']),
  });
}

/** Cancels a run: its page and every list of runs change. */
export function useCancelRun() {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => cancelRun(api, runId),
    onSuccess: (run) => {
      cache.setQueryData(queryKeys.run(run.runId), run);
      invalidate(cache, queryKeys.runs);
    },
  });
}

export function useRegisterUpstream(tenantId: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterUpstreamBody) => registerUpstream(api, tenantId, body),
    onSuccess: () => invalidate(cache, queryKeys.upstreams(tenantId)),
  });
}

/** Deleting a server drops its imported tools: bindings naming them and the catalog change too. */
export function useDeleteUpstream(tenantId: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteUpstream(api, tenantId, name),
    onSuccess: () => invalidate(cache, queryKeys.tenant(tenantId), queryKeys.tools),
  });
}

/** An import is a binding change when it binds: the tenant's bindings and history change with it. */
export function useImportUpstreamTools(tenantId: string, name: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportUpstreamToolsBody) => importUpstreamTools(api, tenantId, name, body),
    onSuccess: () => invalidate(cache, queryKeys.tenant(tenantId), queryKeys.tools),
  });
}

/** A refresh may quarantine, restore or remove tools of the server. */
export function useRefreshUpstream(tenantId: string, name: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: () => refreshUpstream(api, tenantId, name),
    onSuccess: () => invalidate(cache, queryKeys.upstreams(tenantId)),
  });
}

export function useReviewUpstreamTool(tenantId: string, name: string) {
  const api = useApiClient();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (d: { tool: string } & ReviewUpstreamToolBody) =>
      reviewUpstreamTool(api, tenantId, name, d.tool, { decision: d.decision, fingerprint: d.fingerprint }),
    onSuccess: () => invalidate(cache, queryKeys.upstreams(tenantId)),
  });
}
