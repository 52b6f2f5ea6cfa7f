/** Typed calls of the approvals API (CONTRACT.md "Approvals") and the call status. */
import { withQuery, type ApiClient } from './client';
import type { Approval, ApprovalContext, ApprovalStatus, CallState, DecisionResult } from './types';

/** What an approver decides with: requester by name, run, outcome, earlier decisions on the target. */
export const getApprovalContext = (api: ApiClient, approvalId: string, signal?: AbortSignal) =>
  api.request<ApprovalContext>('GET', `/v1/approvals/${encodeURIComponent(approvalId)}/context`, { signal });

export const listApprovals = (api: ApiClient, status: ApprovalStatus, signal?: AbortSignal) =>
  api.request<Approval[]>('GET', withQuery('/v1/approvals', { status }), { signal });

export const approve = (api: ApiClient, approvalId: string, comment?: string) =>
  api.request<DecisionResult>('POST', `/v1/approvals/${encodeURIComponent(approvalId)}/approve`, {
    body: comment ? { comment } : {},
  });

export const deny = (api: ApiClient, approvalId: string, comment: string) =>
  api.request<DecisionResult>('POST', `/v1/approvals/${encodeURIComponent(approvalId)}/deny`, {
    body: { comment },
  });

export const getCall = (api: ApiClient, callId: string, signal?: AbortSignal) =>
  api.request<CallState>('GET', `/v1/calls/${encodeURIComponent(callId)}`, { signal });
