/** Typed calls of the approvals API (CONTRACT.md "Approvals") and the call status. */
import { request, withQuery } from './client';
import type { Approval, ApprovalStatus, CallState, DecisionResult } from './types';

export const listApprovals = (status: ApprovalStatus, signal?: AbortSignal) =>
  request<Approval[]>('GET', withQuery('/v1/approvals', { status }), { signal });

export const approve = (approvalId: string, comment?: string) =>
  request<DecisionResult>('POST', `/v1/approvals/${encodeURIComponent(approvalId)}/approve`, {
    body: comment ? { comment } : {},
  });

export const deny = (approvalId: string, comment: string) =>
  request<DecisionResult>('POST', `/v1/approvals/${encodeURIComponent(approvalId)}/deny`, {
    body: { comment },
  });

export const getCall = (callId: string, signal?: AbortSignal) =>
  request<CallState>('GET', `/v1/calls/${encodeURIComponent(callId)}`, { signal });
