/** Why a message is sent (`outcome`: what became of the call once the approval was decided). */
export type MessageKind = 'request' | 'reminder' | 'escalation' | 'outcome';
export const MESSAGE_KINDS: readonly MessageKind[] = ['request', 'reminder', 'escalation', 'outcome'];

/** What every channel says about an approval: nothing here is secret, the input is redacted. */
export interface ApprovalMessage {
  readonly kind: MessageKind;
  readonly tenantId: string;
  readonly approvalId: string;
  readonly callId: string;
  readonly tool: string;
  readonly riskLevel: string;
  readonly agentType: string | null;
  /** The input as the audit trail stores it (redacted with the tenant's policy). */
  readonly input: unknown;
  readonly prompt: string;
  readonly requestedBy: string;
  readonly status: string;
  readonly expiresAt: string;
  /** Opens the approval in the console. */
  readonly link: string;
  /** `outcome` messages: what became of the call (`approved by 王经理 · failed: UPSTREAM_ERROR`). */
  readonly outcome?: string;
}

const TITLES: Record<MessageKind, string> = {
  request: '待审批 / Approval needed',
  reminder: '审批提醒 / Approval reminder',
  escalation: '审批即将过期 / Approval about to expire',
  outcome: '审批结果 / Approval outcome',
};

/** The message's title line. */
export function titleOf(m: ApprovalMessage): string {
  return `[Toolgate] ${TITLES[m.kind]}: ${m.tool} (${m.riskLevel})`;
}

/** The input as one bounded line: a message must stay within the robots' size limits. */
export function inputLine(input: unknown, max = 800): string {
  const text = JSON.stringify(input ?? null) ?? 'null';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The facts as `label: value` lines, shared by the text-like channels. */
export function factLines(m: ApprovalMessage): [string, string][] {
  const outcome: [string, string][] = m.outcome === undefined ? [] : [['结果 Outcome', m.outcome]];
  return [
    ...outcome,
    ['工具 Tool', `${m.tool} (${m.riskLevel})`],
    ['说明 Prompt', m.prompt.slice(0, 1000)],
    ['输入 Input', inputLine(m.input)],
    ['申请人 Requester', m.requestedBy],
    ['过期 Expires', m.expiresAt],
    ['审批 ID', m.approvalId],
  ];
}

/** Markdown for DingTalk and WeCom (both read a small Markdown subset). */
export function markdownOf(m: ApprovalMessage): string {
  const lines = factLines(m).map(([k, v]) => `> **${k}**: ${v.replace(/\n/g, ' ')}`);
  return [`### ${titleOf(m)}`, ...lines, '', `[在控制台中打开 / Open in the console](${m.link})`].join('\n');
}
