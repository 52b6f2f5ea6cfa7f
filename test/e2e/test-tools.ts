import { Module } from '@nestjs/common';
import { defineToolContract, once, sensitive, ToolkitModule } from '@toolgate/toolkit';
import { z } from 'zod';

/** A streaming tool, only loaded by tests: each yield is a whole snapshot. */
export const buildReport = defineToolContract({
  name: 'build_report',
  description: 'Builds a project report in phases (test tool).',
  inputSchema: z.object({ project: z.string().min(1) }),
  risk: { level: 'L0' },
  label: {
    start: ({ project }) => `为 ${project} 生成报告`,
    delta: (_input, partial: { phase: string }) => partial.phase,
  },
}).implement(async function* ({ project }) {
  yield { project, phase: '收集资料', sections: [] as string[] };
  await new Promise((r) => setTimeout(r, 20));
  yield { project, phase: '完成', sections: ['概览', '风险'] };
});

/** A governed no-op, the cheapest possible tool. */
export const noop = defineToolContract({
  name: 'noop',
  description: 'Does nothing and answers ok (test tool).',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
}).implement(() => ({ ok: true }));

/** How often the test tools' bodies really ran, to prove what governance kept from running. */
export const executions = { recordNote: 0, slowNote: 0, sendNotice: 0, steadyNoteStarts: 0 };
/** The notes `record_note` ran with (a test asks whether one particular call ran, whatever its timing). */
export const recordedNotes = new Set<string>();

/** An L1 tool with free-form personal data: its input must reach the audit trail redacted. */
export const recordContact = defineToolContract({
  name: 'record_contact',
  description: 'Records a customer contact (test tool, L1).',
  inputSchema: z.object({
    name: z.string(),
    phone: z.string(),
    idNumber: z.string(),
    bankCard: z.string(),
    email: z.string(),
    password: z.string(),
    secretAnswer: sensitive(z.string(), 'sensitive_personal'),
    note: z.string().default(''),
  }),
  risk: { level: 'L1', dataDomains: ['crm.contacts'] },
}).implement((input) => ({
  saved: true,
  echo: `已记录 ${input.name}，电话 ${input.phone}，邮箱 ${input.email}`,
}));

/** An L1 tool that succeeds or fails on request, and counts its executions. */
export const recordNote = defineToolContract({
  name: 'record_note',
  description: 'Records a note, or fails when asked to (test tool, L1).',
  inputSchema: z.object({ note: z.string().max(200), fail: z.boolean().default(false) }),
  risk: { level: 'L1' },
}).implement(({ note, fail }) => {
  executions.recordNote++;
  recordedNotes.add(note);
  if (fail) throw new Error(`note store rejected "${note}"`);
  return { stored: note.length };
});

/** An L1 tool that ignores its abort signal and finishes after its time limit. */
export const slowNote = defineToolContract({
  name: 'slow_note',
  description: 'Finishes after its time limit (test tool, L1).',
  inputSchema: z.object({}),
  risk: { level: 'L1' },
  timeoutMs: 300,
}).implement(
  () =>
    new Promise((resolve) =>
      setTimeout(() => {
        executions.slowNote++;
        resolve({ finallyDone: true });
      }, 700),
    ),
);

/**
 * An L1 tool that takes a while but well within its limit, and counts its starts: requests that
 * race on one Idempotency-Key overlap its execution, and every start is counted before any answer.
 */
export const steadyNote = defineToolContract({
  name: 'steady_note',
  description: 'Takes 300 ms, well within its limit (test tool, L1).',
  inputSchema: z.object({}),
  risk: { level: 'L1' },
  timeoutMs: 10_000,
}).implement(() => {
  executions.steadyNoteStarts++;
  return new Promise((resolve) => setTimeout(() => resolve({ steady: true }), 300));
});

/** An L2 tool approved once per session and channel; it reports who approved it. */
export const sendNotice = defineToolContract({
  name: 'send_notice',
  description: 'Sends a notice to a channel (test tool, L2, approval once per session and channel).',
  inputSchema: z.object({ channel: z.enum(['email', 'sms']), text: z.string().min(1) }),
  risk: { level: 'L2' },
  approval: { request: once(), prompt: ({ input }) => `发送通知到 ${input.channel}：${input.text}` },
  approvalKey: ({ channel }) => channel,
}).implement((_input, ctx) => {
  executions.sendNotice++;
  return { sent: true, responder: ctx.approval?.responder.principalId ?? null };
});

/** What the abort-aware test tools saw: a test reads it to prove a call was (or was not) stopped. */
export const abortProbe = {
  awaitAbortStarted: 0,
  awaitAbortAborted: 0,
  holdReceiptStarted: 0,
  holdReceiptFinished: 0,
  holdReceiptAborted: 0,
};

/** An L0 tool that waits for its call to be aborted (or 5 s, well under its time limit). */
export const awaitAbort = defineToolContract({
  name: 'await_abort',
  description: 'Waits until its call is aborted (test tool, L0).',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
}).implement(
  (_input, ctx) =>
    new Promise((resolve) => {
      abortProbe.awaitAbortStarted++;
      const timer = setTimeout(() => resolve({ aborted: false }), 5_000);
      ctx.abortSignal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          abortProbe.awaitAbortAborted++;
          resolve({ aborted: true });
        },
        { once: true },
      );
    }),
);

/** An L1 tool that takes 500 ms and notes whether its call was aborted on the way. */
export const holdReceipt = defineToolContract({
  name: 'hold_receipt',
  description: 'Holds a receipt for half a second (test tool, L1).',
  inputSchema: z.object({ receipt: z.string() }),
  risk: { level: 'L1' },
}).implement(
  ({ receipt }, ctx) =>
    new Promise((resolve) => {
      abortProbe.holdReceiptStarted++;
      ctx.abortSignal.addEventListener('abort', () => abortProbe.holdReceiptAborted++, { once: true });
      setTimeout(() => {
        abortProbe.holdReceiptFinished++;
        resolve({ held: receipt });
      }, 500);
    }),
);

@Module({
  imports: [
    ToolkitModule.forFeature(
      [
        buildReport,
        noop,
        recordContact,
        recordNote,
        slowNote,
        steadyNote,
        sendNotice,
        awaitAbort,
        holdReceipt,
      ],
      'TestToolsModule',
    ),
  ],
})
export class TestToolsModule {}

/** A third tenant with a narrow binding, for "not bound" and streaming tests. */
export const INITECH_YAML = `
id: initech
name: Initech
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
agentTypes:
  ops_assistant:
    tools:
      - get_service_status
  reporting:
    tools:
      - build_report
      - noop
  audit_tests:
    tools:
      - record_contact
      - record_note
      - slow_note
      - steady_note
      - noop
      - send_notice
      - restart_service
      - name: get_service_status
approvals:
  twoApproversForL3: true
quotas:
  - scope: key
    tool: get_service_status
    perMinute: 3
`;
