import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TenantRedaction } from '@toolgate/audit';
import type { RunEvent } from '@toolgate/contract';
import { jsonText } from '@toolgate/database';
import { BindingResolver } from '@toolgate/tenancy';
import { MoreThan, type DataSource } from 'typeorm';
import { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunEventEntity } from '../entities/run-event.entity.js';
import { RunStepEntity } from '../entities/run-step.entity.js';
import { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import type { RunRef } from '../store/run.repository.js';
import { RunRedactor } from './run-redactor.js';

/** Events read per page while a run's events are rewritten. */
const EVENT_PAGE = 500;

/**
 * Rewrites a run that ended into the redacted forms other readers already see (ADR 036): the
 * question, the answer and error, each turn's text and tool-call arguments, each call's input,
 * result and model text, and its events. While a run may still go on its rows stay as they are —
 * the next model turn reads them — and once it ended nothing raw is kept. A text delta cannot be
 * redacted fragment by fragment (a number may be split across two), so its text is dropped: the
 * turn's whole text stays, redacted, in `model_finished`.
 */
@Injectable()
export class RunScrubber {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redaction: TenantRedaction,
    private readonly tools: BindingResolver,
  ) {}

  /**
   * Scrubs a run that ended and, when it is a top-level run, every sub-agent run under it. A
   * sub-agent's answer is what its parent's model reads next, so it stays (sealed) until the run at
   * the top of its tree ended.
   */
  async scrubEnded(run: { tenantId: string; runId: string; parentRunId: string | null }): Promise<void> {
    if (run.parentRunId) return;
    const pending: RunRef[] = [{ tenantId: run.tenantId, runId: run.runId }];
    for (let ref = pending.pop(); ref; ref = pending.pop()) {
      await this.scrub(ref);
      const children = await this.dataSource.getRepository(AgentRunEntity).find({
        select: { tenantId: true, runId: true },
        where: { tenantId: ref.tenantId, parentRunId: ref.runId },
      });
      pending.push(...children.map((c) => ({ tenantId: c.tenantId, runId: c.runId })));
    }
  }

  /** Rewrites one run's rows into their redacted forms. */
  async scrub(ref: RunRef): Promise<void> {
    const [redactor, tools] = await Promise.all([
      this.redaction.redactorFor(ref.tenantId),
      this.tools.lookupFor(ref.tenantId),
    ]);
    const r = new RunRedactor(redactor, tools);
    const where = { tenantId: ref.tenantId, runId: ref.runId };
    const key = [ref.tenantId, ref.runId];
    // Plain SQL, not the entities: their transformers would seal what is now safe to keep as it is.
    await this.dataSource.transaction(async (em) => {
      const run = await em.getRepository(AgentRunEntity).findOneBy(where);
      if (!run) return;
      await em.query(
        'UPDATE agent_runs SET input = ?, output = ?, error = ? WHERE tenant_id = ? AND run_id = ?',
        [
          r.text(run.input),
          run.output === null ? null : r.text(run.output),
          jsonText(run.error === null ? null : redactor.redact(run.error)),
          ...key,
        ],
      );
      for (const s of await em.getRepository(RunStepEntity).findBy(where)) {
        const toolCalls = s.toolCalls.map((c) => ({
          ...c,
          arguments: this.arguments(r, c.name, c.arguments),
        }));
        await em.query(
          'UPDATE run_steps SET text = ?, tool_calls = ? WHERE tenant_id = ? AND run_id = ? AND step_index = ?',
          [s.text === null ? null : r.text(s.text), jsonText(toolCalls), ...key, s.stepIndex],
        );
      }
      for (const c of await em.getRepository(RunToolCallEntity).findBy(where)) {
        await em.query(
          'UPDATE run_tool_calls SET input = ?, result = ?, model_text = ? WHERE tenant_id = ? AND run_id = ? AND step_index = ? AND call_index = ?',
          [
            jsonText(redactor.cap(r.input(c.tool, c.input))),
            jsonText(c.result === null ? null : redactor.cap(r.result(c.tool, c.result))),
            c.modelText === null ? null : r.toolText(c.tool, c.modelText),
            ...key,
            c.stepIndex,
            c.callIndex,
          ],
        );
      }
      const events = em.getRepository(RunEventEntity);
      let after = 0;
      for (;;) {
        const page = await events.find({
          where: { ...where, seq: MoreThan(after) },
          order: { seq: 'ASC' },
          take: EVENT_PAGE,
        });
        // A text delta keeps its step and loses its text; one statement per step for all of them.
        const deltas = new Map<number, number[]>();
        for (const e of page) {
          if (e.type === 'text_delta') {
            const step = Number(e.data.step);
            const seqs = deltas.get(step);
            if (seqs) seqs.push(e.seq);
            else deltas.set(step, [e.seq]);
            continue;
          }
          const shown = r.event({
            id: String(e.seq),
            runId: e.runId,
            type: e.type,
            at: '',
            data: e.data,
          } as RunEvent);
          await em.query('UPDATE run_events SET data = ? WHERE tenant_id = ? AND run_id = ? AND seq = ?', [
            jsonText(shown ? shown.data : redactor.redact(e.data)),
            ...key,
            e.seq,
          ]);
        }
        for (const [step, seqs] of deltas)
          await em.query(
            `UPDATE run_events SET data = ? WHERE tenant_id = ? AND run_id = ? AND seq IN (${seqs.map(() => '?').join(', ')})`,
            [jsonText({ step, delta: '' }), ...key, ...seqs],
          );
        if (page.length < EVENT_PAGE) break;
        after = page.at(-1)!.seq;
      }
    });
  }

  /** A model's tool-call arguments (JSON text) redacted as that tool's input, or as text when not JSON. */
  private arguments(r: RunRedactor, tool: string, args: string): string {
    try {
      return JSON.stringify(r.input(tool, JSON.parse(args)));
    } catch {
      return r.text(args);
    }
  }
}
