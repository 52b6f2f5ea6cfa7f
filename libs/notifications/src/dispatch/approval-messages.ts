import { Inject, Injectable } from '@nestjs/common';
import { ApprovalReader } from '@toolgate/approvals';
import { TenantRedaction } from '@toolgate/audit';
import type { ApprovalMessage, MessageKind } from '../channels/approval-message.js';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options.js';

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
    };
  }
}
