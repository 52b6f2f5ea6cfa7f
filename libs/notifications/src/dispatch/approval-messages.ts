import { Inject, Injectable } from '@nestjs/common';
import { ApprovalReader } from '@toolgate/approvals';
import { AuditCallQueries, TenantRedaction } from '@toolgate/audit';
import type { ApprovalMessage, MessageKind } from '../channels/approval-message.js';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options.js';

/** Call states after which nothing more happens to an approved call. */
const ENDED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'interrupted']);

/** The approval fields a message is made of (an approval row, or an approval view). */
export type ApprovalFacts = Omit<ApprovalMessage, 'kind' | 'link' | 'expiresAt'> & {
  readonly expiresAt: Date;
};

/** Builds messages from approvals: the console link, and the input redacted by the audit lib. */
@Injectable()
export class ApprovalMessages {
  constructor(
    private readonly approvals: ApprovalReader,
    private readonly redaction: TenantRedaction,
    private readonly trail: AuditCallQueries,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {}

  /** The approval of a tenant; null when it does not exist there. */
  async facts(tenantId: string, approvalId: string): Promise<ApprovalFacts | null> {
    const a = await this.approvals.find(tenantId, approvalId);
    if (!a) return null;
    return {
      tenantId: a.tenantId,
      approvalId: a.id,
      callId: a.callId,
      tool: a.tool,
      riskLevel: a.riskLevel,
      agentType: a.agentType,
      input: a.inputRedacted as unknown,
      prompt: a.prompt,
      requestedBy: a.requestedBy,
      status: a.status,
      expiresAt: a.expiresAt,
    };
  }

  /** Where the console shows one approval. */
  linkTo(approvalId: string): string {
    let base = this.options.publicUrl;
    while (base.endsWith('/')) base = base.slice(0, -1);
    return `${base}/console/approvals/${encodeURIComponent(approvalId)}`;
  }

  /**
   * What became of a decided approval, as one line (`approved by 王经理 · failed: UPSTREAM_ERROR`),
   * read from the trail's call projection; null while it is pending or its approved call has not
   * ended yet (or the projection has not reached its end).
   */
  async outcomeOf(
    f: Pick<ApprovalFacts, 'tenantId' | 'approvalId' | 'callId' | 'tool' | 'requestedBy' | 'status'>,
  ): Promise<string | null> {
    if (f.status === 'pending') return null;
    if (f.status === 'expired') return 'expired: nobody decided in time';
    const { call } = await this.trail.approvalContext(f);
    const deciders = (call?.approvers ?? []).map((a) => a.name ?? a.id).join(', ');
    const decided = deciders ? `${f.status} by ${deciders}` : f.status;
    if (f.status !== 'approved') return decided;
    if (!call || !ENDED.has(call.state)) return null;
    return call.state === 'succeeded'
      ? `${decided} · succeeded`
      : `${decided} · ${call.state}: ${call.code ?? 'no code'}`;
  }

  async message(f: ApprovalFacts, kind: MessageKind): Promise<ApprovalMessage> {
    // Stored already redacted with the tenant's policy; redacted again so that a message can never
    // carry more than the audit trail would, whatever wrote the row.
    const redactor = await this.redaction.redactorFor(f.tenantId);
    return {
      kind,
      tenantId: f.tenantId,
      approvalId: f.approvalId,
      callId: f.callId,
      tool: f.tool,
      riskLevel: f.riskLevel,
      agentType: f.agentType,
      input: redactor.redact(f.input),
      prompt: redactor.redactText(f.prompt),
      requestedBy: f.requestedBy,
      status: f.status,
      expiresAt: f.expiresAt.toISOString(),
      link: this.linkTo(f.approvalId),
      ...(kind === 'outcome' ? { outcome: (await this.outcomeOf(f)) ?? f.status } : {}),
    };
  }
}
