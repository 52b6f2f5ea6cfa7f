/** Typed calls of the notifications admin API (`/v1/admin/tenants/:tenantId/notifications`, issue 13). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from './ApiClientContext';
import { withQuery, type ApiClient } from './client';
import type { Approval, RiskLevel } from './types';

export type ChannelType = 'webhook' | 'dingtalk' | 'feishu' | 'feishu_app' | 'wecom';
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'dead' | 'skipped';

/** A channel as the console sees it: secrets only as the names of their environment variables. */
export interface NotificationChannel {
  readonly name: string;
  readonly type: ChannelType;
  readonly url: string;
  readonly description: string | null;
  readonly tokenEnv: string | null;
  readonly tokenSet: boolean | null;
  readonly secretEnv: string | null;
  readonly secretSet: boolean | null;
}

export interface NotificationRoute {
  readonly channels: readonly string[];
  readonly risk?: readonly RiskLevel[];
  readonly tools?: readonly string[];
  readonly dataDomains?: readonly string[];
}

export interface NotificationSettings {
  readonly channels: readonly NotificationChannel[];
  readonly routes: readonly NotificationRoute[];
  readonly reminders: { readonly beforeExpiryMs: readonly number[] } | null;
  readonly escalation: { readonly channel: string; readonly beforeExpiryMs: number } | null;
  readonly feishu: {
    readonly encryptKeyEnv: string;
    readonly encryptKeySet: boolean | null;
    readonly verificationTokenEnv: string | null;
    readonly users: readonly { feishuId: string; subject: string; name: string | null; role: string }[];
  } | null;
}

export interface DeliveryAttempt {
  readonly seq: number;
  readonly status: 'ok' | 'failed';
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly attemptedAt: string;
}

export interface Delivery {
  readonly id: string;
  readonly approvalId: string;
  readonly channel: string;
  readonly channelType: ChannelType;
  readonly kind: 'request' | 'reminder' | 'escalation' | 'outcome';
  readonly occasion: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly log: readonly DeliveryAttempt[];
}

const base = (tenantId: string) => `/v1/admin/tenants/${encodeURIComponent(tenantId)}/notifications`;

export const getNotificationSettings = (api: ApiClient, tenantId: string, signal?: AbortSignal) =>
  api.request<NotificationSettings>('GET', base(tenantId), { signal });

export const listDeliveries = (
  api: ApiClient,
  tenantId: string,
  status: DeliveryStatus | undefined,
  signal?: AbortSignal,
) =>
  api.request<Delivery[]>('GET', withQuery(`${base(tenantId)}/deliveries`, { status, limit: 200 }), {
    signal,
  });

export const retryDelivery = (api: ApiClient, tenantId: string, deliveryId: string) =>
  api.request<null>('POST', `${base(tenantId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`);

export const getApproval = (api: ApiClient, approvalId: string, signal?: AbortSignal) =>
  api.request<Approval>('GET', `/v1/approvals/${encodeURIComponent(approvalId)}`, { signal });

const keys = {
  settings: (tenantId: string) => ['/v1/admin/tenants', tenantId, 'notifications'] as const,
  deliveries: (tenantId: string) => ['/v1/admin/tenants', tenantId, 'notifications', 'deliveries'] as const,
};

/** How often the delivery log asks for news. */
export const DELIVERIES_POLL_MS = 5000;

export function useNotificationSettings(tenantId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.settings(tenantId ?? ''),
    queryFn: ({ signal }) => getNotificationSettings(api, tenantId ?? '', signal),
    enabled: Boolean(tenantId),
  });
}

export function useDeliveries(tenantId: string | null, status: DeliveryStatus | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...keys.deliveries(tenantId ?? ''), status ?? 'all'],
    queryFn: ({ signal }) => listDeliveries(api, tenantId ?? '', status, signal),
    enabled: Boolean(tenantId),
    refetchInterval: DELIVERIES_POLL_MS,
  });
}

export function useRetryDelivery(tenantId: string) {
  const api = useApiClient();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => retryDelivery(api, tenantId, deliveryId),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.deliveries(tenantId) }),
  });
}

/** One approval (the page a notification's link opens). */
export function useApproval(approvalId: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['/v1/approvals', approvalId],
    queryFn: ({ signal }) => getApproval(api, approvalId, signal),
  });
}
