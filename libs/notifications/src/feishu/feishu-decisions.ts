import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApprovalService } from '@toolgate/approvals';
import { personPrincipal } from '@toolgate/auth';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { timingSafeEqual } from 'node:crypto';
import { TenantNotifications } from '../config/tenant-notifications.js';
import { ApprovalMessages } from '../dispatch/approval-messages.js';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options.js';
import { CallbackNonceRepository } from './callback-nonce.repository.js';
import {
  decryptFeishu,
  readFeishuCallback,
  signatureMatches,
  type FeishuCallback,
  type FeishuCallbackHeaders,
} from './feishu-callback.js';
import { decidedCard } from './feishu-card.js';

/** What Feishu shows after a click: a toast, and the card replaced when something was decided. */
export type FeishuAnswer =
  | { readonly challenge: string }
  | {
      readonly toast: { readonly type: 'success' | 'error' | 'info'; readonly content: string };
      readonly card?: { readonly type: 'raw'; readonly data: unknown };
    };

const refuse = (reason: string) => new ToolgateError(ErrorCode.UNAUTHENTICATED, { details: { reason } });

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Decisions from Feishu cards. A callback counts only when it is signed with the tenant's Encrypt
 * Key, within the timestamp window, carries the Verification Token (when one is configured), and
 * was never seen before by this tenant; the clicking Feishu user must be mapped in the tenant's
 * file to a person with an approver role, who then decides through ApprovalService like anyone in
 * the console (separation of duties included).
 */
@Injectable()
export class FeishuDecisions {
  private readonly logger = new Logger(FeishuDecisions.name);

  constructor(
    private readonly settings: TenantNotifications,
    private readonly nonces: CallbackNonceRepository,
    private readonly approvals: ApprovalService,
    private readonly messages: ApprovalMessages,
    @Inject(NOTIFICATIONS_OPTIONS) private readonly options: NotificationsOptions,
  ) {}

  async handle(
    tenantId: string,
    headers: FeishuCallbackHeaders,
    rawBody: Buffer | undefined,
  ): Promise<FeishuAnswer> {
    const feishu = (await this.settings.of(tenantId))?.feishu;
    if (!feishu)
      throw new ToolgateError(ErrorCode.NOT_FOUND, {
        params: { resource: 'a Feishu integration of this tenant' },
      });
    const encryptKey = process.env[feishu.encryptKeyEnv];
    if (!encryptKey) throw refuse('the Feishu Encrypt Key is not configured');
    if (!rawBody || !signatureMatches(headers, encryptKey, rawBody)) throw refuse('bad signature');
    const sentAt = Number(headers.timestamp) * 1000;
    if (!Number.isFinite(sentAt) || Math.abs(Date.now() - sentAt) > this.options.callbackWindowMs)
      throw refuse('timestamp outside the allowed window');
    const callback = this.read(rawBody, encryptKey);
    const token = feishu.verificationTokenEnv ? process.env[feishu.verificationTokenEnv] : undefined;
    if (feishu.verificationTokenEnv && (!token || !callback.token || !sameText(callback.token, token)))
      throw refuse('bad verification token');
    if (callback.challenge !== undefined) return { challenge: callback.challenge };
    const nonce = callback.eventId ?? headers.nonce ?? '';
    if (!(await this.nonces.firstSight(tenantId, nonce.slice(0, 128), new Date())))
      throw refuse('replayed callback');
    return this.decide(tenantId, callback, feishu.users);
  }

  private read(rawBody: Buffer, encryptKey: string): FeishuCallback {
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
      const encrypted = (body as { encrypt?: unknown }).encrypt;
      if (typeof encrypted === 'string') body = JSON.parse(decryptFeishu(encrypted, encryptKey));
    } catch {
      throw refuse('unreadable callback body');
    }
    const callback = readFeishuCallback(body);
    if (!callback) throw refuse('unreadable callback body');
    return callback;
  }

  private async decide(
    tenantId: string,
    c: FeishuCallback,
    users: Record<
      string,
      { subject: string; name?: string; email?: string; provider: string; role: 'approver' | 'tenant_admin' }
    >,
  ): Promise<FeishuAnswer> {
    if (!c.decide) return { toast: { type: 'info', content: 'Not a Toolgate approval button' } };
    const user = (c.openId ? users[c.openId] : undefined) ?? (c.userId ? users[c.userId] : undefined);
    if (!user)
      return {
        toast: { type: 'error', content: '你没有此租户的审批权限 / You may not decide approvals here' },
      };
    if (c.decide.tenantId !== tenantId)
      return { toast: { type: 'error', content: 'This card belongs to another tenant' } };
    const actor = personPrincipal(
      { provider: user.provider, subject: user.subject, name: user.name, email: user.email },
      user.role,
      tenantId,
    );
    try {
      const { approval } = await this.approvals.decide(
        actor,
        c.decide.approvalId,
        c.decide.decision,
        'decided in Feishu',
      );
      const facts = await this.messages.facts(tenantId, approval.approvalId);
      const who = `${actor.name}${user.email ? ` <${user.email}>` : ''}`;
      const outcome = approval.status === 'pending' ? 'approved (1 more approver needed)' : approval.status;
      this.logger.log(
        `approval ${approval.approvalId} of ${tenantId}: ${c.decide.decision} by ${actor.principalId} in Feishu`,
      );
      return {
        toast: { type: 'success', content: `${outcome} · ${who}` },
        ...(facts
          ? {
              card: {
                type: 'raw',
                data: decidedCard(await this.messages.message(facts, 'request'), outcome, who),
              },
            }
          : {}),
      };
    } catch (err) {
      if (!(err instanceof ToolgateError)) throw err;
      const reason = (err.details as { reason?: string } | undefined)?.reason;
      return { toast: { type: 'error', content: `${err.code}${reason ? `: ${reason}` : ''}` } };
    }
  }
}
