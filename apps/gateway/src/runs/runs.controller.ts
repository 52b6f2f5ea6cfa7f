import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import {
  runListQuery,
  runEventSchema,
  runPageSchema,
  runViewSchema,
  sessionRunsSchema,
  startRunBodySchema,
  type RunListQuery,
  type RunView,
  type StartRunBody,
} from '@toolgate/contract';
import { KeyConcurrency } from '@toolgate/quotas';
import { RunEvents, RunService, type StartedRun } from '@toolgate/runs';
import { errorEnvelope, ErrorCode, ok, type Locale } from '@toolgate/toolkit';
import type { FastifyReply } from 'fastify';
import { RequestLocale } from '../http/request-locale.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';
import { inCallerTrace } from '../telemetry/inbound-span.js';
import { lastEventIdOf, streamRunEvents } from './run-event-stream.js';

const READERS = ['agent', 'tenant_admin', 'auditor', 'platform_admin'] as const;

/** Where a parked run's client follows it: the run resumes by itself once every approval is decided. */
const FOLLOW_THE_RUN: Record<Locale, (runId: string) => string> = {
  'zh-CN': (runId) =>
    `审批决定后运行会自动继续：通过 GET /v1/runs/${runId}/events 跟随，或 GET /v1/runs/${runId} 查询结果`,
  en: (runId) =>
    `The run goes on by itself once decided: follow GET /v1/runs/${runId}/events or read GET /v1/runs/${runId}`,
};

/** The 202 answer of a run parked on approval: what it waits for, and where to follow it. */
function parkedAnswer(view: RunView, locale: Locale) {
  const first = view.pendingApprovals[0];
  const base = errorEnvelope(ErrorCode.APPROVAL_PENDING, locale, { callId: first?.callId ?? '' });
  return {
    ...base,
    suggestedAction: FOLLOW_THE_RUN[locale](view.runId),
    details: { runId: view.runId, approvals: view.pendingApprovals },
    runId: view.runId,
    ...(first ? { approvalId: first.approvalId, callId: first.callId } : {}),
  };
}

/** CONTRACT.md "Agent runs": start a run, follow it, read it, cancel it. */
@ApiTags('runs')
@ApiBearerAuth()
@Controller()
export class RunsController {
  constructor(
    private readonly runs: RunService,
    private readonly events: RunEvents,
    private readonly caps: KeyConcurrency,
  ) {}

  /** One of the key's open run streams on this gateway (429 RATE_LIMITED past `quotas.runStreamsPerKey`). */
  private streamSlot(p: Principal) {
    return this.caps.take('runStreamsPerKey', p.tenantId ?? '', p.principalId);
  }

  @Post('v1/agents/:agentType/runs')
  @Roles('agent')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'startRun',
    summary: 'Run an agent on a question',
    description:
      "200 with the run when it ends within the request, 202 APPROVAL_PENDING when it parks on an approval (it goes on by itself once decided), 429 BUDGET_EXCEEDED (Retry-After) when the tenant's tokens of the UTC day are spent, 429 RATE_LIMITED past the key's runs in flight, open streams or a call quota. With `Accept: text/event-stream` the run streams its events.",
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiEnvelope(runViewSchema, {
    errors: ['NOT_FOUND', 'APPROVAL_PENDING', 'BUDGET_EXCEEDED', 'RATE_LIMITED'],
  })
  async start(
    @CurrentPrincipal() p: Principal,
    @Param('agentType') agentType: string,
    @Body({ schema: startRunBodySchema }) body: StartRunBody,
    @RequestLocale() locale: Locale,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('traceparent') traceparent?: string,
  ) {
    // A stream is taken before the run starts: a refused stream starts nothing.
    const release = accept?.includes('text/event-stream') ? this.streamSlot(p) : undefined;
    try {
      // The run's spans join the caller's trace (ADR 019).
      const started = await inCallerTrace(traceparent, () => this.runs.start(p, agentType, body, locale));
      if (release) {
        let parked = false;
        void started.done.then(({ outcome }) => (parked = outcome !== 'finished'));
        await streamRunEvents(reply, this.events, started.ref, 0, () => parked);
        return;
      }
      return await this.answerStarted(p, started, locale, reply);
    } finally {
      release?.();
    }
  }

  private async answerStarted(p: Principal, started: StartedRun, locale: Locale, reply: FastifyReply) {
    const view = await this.runs.viewOfStarted(p, started);
    if (view.status === 'awaiting_approval') {
      void reply.status(202);
      return parkedAnswer(view, locale);
    }
    return ok(view);
  }

  @Get('v1/runs')
  @Roles(...READERS)
  @ApiOperation({
    operationId: 'listRuns',
    summary: 'Runs, newest first',
    description:
      "An agent key's own runs; all of the tenant's for its admins and auditors; a platform admin's every run, or one tenant's with `tenantId`.",
  })
  @ApiEnvelope(runPageSchema)
  async list(@CurrentPrincipal() p: Principal, @Query({ schema: runListQuery }) query: RunListQuery) {
    return ok(await this.runs.list(p, query));
  }

  @Get('v1/runs/:runId')
  @Roles(...READERS)
  @ApiOperation({
    operationId: 'getRun',
    summary: 'One run',
    description:
      'The run’s status, its steps with their tool calls, its answer or error, its pending approvals and its token usage.',
  })
  @ApiEnvelope(runViewSchema, { errors: ['NOT_FOUND'] })
  async get(@CurrentPrincipal() p: Principal, @Param('runId') runId: string) {
    return ok(await this.runs.view(p, runId));
  }

  @Get('v1/runs/:runId/events')
  @Roles(...READERS)
  @ApiOperation({
    operationId: 'streamRunEvents',
    summary: "A run's events as server-sent events",
    description:
      '`Last-Event-ID` replays the events after it; the stream then follows the run, through parking, until `run_finished`.',
  })
  @ApiEnvelope(null, { events: runEventSchema, errors: ['NOT_FOUND', 'RATE_LIMITED'] })
  async stream(
    @CurrentPrincipal() p: Principal,
    @Param('runId') runId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // Checked before the reply is taken over: after hijack() no error can become an envelope.
    const run = await this.runs.visible(p, runId);
    // Other readers than the run's own key get the events redacted (CONTRACT.md "Agent runs").
    const present = await this.runs.eventsFor(p, run);
    const release = this.streamSlot(p);
    try {
      await streamRunEvents(reply, this.events, run, lastEventIdOf(lastEventId), undefined, present);
    } finally {
      release();
    }
  }

  @Post('v1/runs/:runId/cancel')
  @Roles('agent', 'tenant_admin', 'platform_admin')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelRun',
    summary: 'Cancel a run',
    description:
      "A run that has not ended becomes `cancelled`: the running tool's AbortSignal fires, its pending approvals are withdrawn, its sub-agent runs are cancelled and every unfinished call gets a final status. Cancelling an ended run changes nothing.",
  })
  @ApiEnvelope(runViewSchema, { errors: ['NOT_FOUND'] })
  async cancel(
    @CurrentPrincipal() p: Principal,
    @Param('runId') runId: string,
    @RequestLocale() locale: Locale,
  ) {
    return ok(await this.runs.cancel(p, runId, locale));
  }

  @Get('v1/sessions/:sessionId/runs')
  @Roles(...READERS)
  @ApiOperation({
    operationId: 'getSessionRuns',
    summary: 'The runs of a session',
    description:
      'Oldest first; a new run with the same `sessionId` continues the conversation. A session belongs to the key and agent type that started it (404 for anyone else).',
  })
  @ApiEnvelope(sessionRunsSchema, { errors: ['NOT_FOUND'] })
  async session(@CurrentPrincipal() p: Principal, @Param('sessionId') sessionId: string) {
    return ok(await this.runs.session(p, sessionId));
  }
}
