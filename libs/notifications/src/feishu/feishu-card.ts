import { factLines, titleOf, type ApprovalMessage } from '../channels/approval-message.js';

/** What a card button sends back in `action.value` (Feishu returns it as given). */
export interface CardActionValue {
  readonly toolgate: 'decide';
  readonly tenantId: string;
  readonly approvalId: string;
  readonly decision: 'approve' | 'deny';
}

const TEMPLATE: Record<string, string> = { L3: 'red', L2: 'orange', L1: 'yellow', L0: 'blue' };

const text = (content: string) => ({ tag: 'plain_text', content });
const markdownDiv = (content: string) => ({ tag: 'div', text: { tag: 'lark_md', content } });

function factsDiv(m: ApprovalMessage) {
  return markdownDiv(
    factLines(m)
      .map(([k, v]) => `**${k}**: ${v.replace(/\n/g, ' ')}`)
      .join('\n'),
  );
}

function button(m: ApprovalMessage, decision: 'approve' | 'deny') {
  const value: CardActionValue = {
    toolgate: 'decide',
    tenantId: m.tenantId,
    approvalId: m.approvalId,
    decision,
  };
  return {
    tag: 'button',
    text: text(decision === 'approve' ? '批准 Approve' : '拒绝 Deny'),
    type: decision === 'approve' ? 'primary' : 'danger',
    value,
  };
}

/**
 * The interactive card (message card JSON, `msg_type: interactive`): the facts, approve / deny
 * buttons whose callbacks reach `POST /v1/integrations/feishu/:tenantId/card`, and a link button
 * to the console. Callback buttons work when the card is sent by a Feishu app (channel type
 * `feishu_app`) whose card callback URL points at Toolgate; a custom (webhook) bot shows them but
 * Feishu delivers their clicks only to apps, so there the console link is how to decide.
 */
export function approvalCard(m: ApprovalMessage) {
  if (m.kind === 'outcome') return outcomeCard(m);
  return {
    config: { wide_screen_mode: true, update_multi: true },
    header: { title: text(titleOf(m)), template: TEMPLATE[m.riskLevel] ?? 'blue' },
    elements: [
      factsDiv(m),
      {
        tag: 'action',
        actions: [
          button(m, 'approve'),
          button(m, 'deny'),
          { tag: 'button', text: text('在控制台打开 Open'), type: 'default', url: m.link },
        ],
      },
    ],
  };
}

/** The card after a decision: the same facts, no buttons, and who decided what. */
export function decidedCard(m: ApprovalMessage, outcome: string, who: string) {
  return {
    config: { wide_screen_mode: true, update_multi: true },
    header: {
      title: text(`${titleOf(m)} — ${outcome}`),
      template: outcome === 'approved' ? 'green' : 'grey',
    },
    elements: [
      factsDiv(m),
      markdownDiv(`**${outcome}** · ${who}`),
      { tag: 'hr' },
      markdownDiv(`[在控制台查看 / Open in the console](${m.link})`),
    ],
  };
}

/** What became of a decided approval's call: the facts with the outcome first, no buttons. */
function outcomeCard(m: ApprovalMessage) {
  const failed = /failed|denied|expired|interrupted/.test(m.outcome ?? '');
  return {
    config: { wide_screen_mode: true, update_multi: true },
    header: { title: text(titleOf(m)), template: failed ? 'red' : 'green' },
    elements: [factsDiv(m), { tag: 'hr' }, markdownDiv(`[在控制台查看 / Open in the console](${m.link})`)],
  };
}
