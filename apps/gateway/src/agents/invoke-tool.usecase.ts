import { Injectable } from '@nestjs/common';
import { Agent, AgentFactory, type AgentPrincipal } from '@toolgate/agents';
import { IdempotencyService, requestDigest } from '@toolgate/calls';
import {
  andThen,
  ErrorCode,
  isOk,
  type MaybePromise,
  type CallAbortSignal,
  type Envelope,
  type Locale,
  type ToolCallEvent,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { statusOfInvoke } from '../http/error-status.js';
import type { InvokeBody } from '@toolgate/contract';

/** One invoke request, as the route hands it over. */
export interface InvokeCommand {
  readonly tenantId: string;
  readonly agentType: string;
  readonly toolName: string;
  readonly principal: AgentPrincipal;
  readonly body: InvokeBody;
  readonly locale: Locale;
  readonly view: 'full' | 'model';
  readonly idempotencyKey?: string;
  readonly onEvent?: (event: ToolCallEvent) => void;
  /** Aborts the call (its `ctx.abortSignal`), e.g. when the client of an L0 call goes away. */
  readonly signal?: CallAbortSignal;
  /** The client's `traceparent` header, when well-formed. */
  readonly traceparent?: string;
}

/** What the route sends back. */
export interface InvokeAnswer {
  readonly status: number;
  readonly callId: string;
  readonly envelope: Envelope;
  readonly headers: Record<string, string>;
}

/**
 * `POST /v1/agents/:agentType/tools/:toolName/invoke`: build the agent (`agentFor`), run the call
 * (once per Idempotency-Key when one is sent), shape the answer.
 */
@Injectable()
export class InvokeToolUseCase {
  constructor(
    private readonly agents: AgentFactory,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * The caller's agent with the tool checked: unknown agent types and tools throw (404) here,
   * before any key is taken or any answer (an SSE stream) starts.
   */
  agentFor(
    tenantId: string,
    agentType: string,
    toolName: string,
    principal: AgentPrincipal,
  ): MaybePromise<Agent> {
    return andThen(this.agents.create(tenantId, agentType, principal), withTool, toolName);
  }

  /**
   * Runs the call (once per Idempotency-Key when one is sent) and shapes its answer. A plain
   * answer when the call completes synchronously — no Idempotency-Key, a synchronous tool and hooks
   * (Agent.invoke), the REST hot path (ADR 022) — a promise otherwise.
   */
  execute(agent: Agent, command: InvokeCommand): MaybePromise<InvokeAnswer> {
    const input = command.body.input ?? {};
    if (command.idempotencyKey) return this.executeOnce(agent, command, input, command.idempotencyKey);
    return andThen(this.invoke(agent, command, input, undefined, undefined), answerOf, command);
  }

  /** The call run once per Idempotency-Key: a retry with the same key and request gets the same answer. */
  private async executeOnce(
    agent: Agent,
    command: InvokeCommand,
    input: unknown,
    idempotencyKey: string,
  ): Promise<InvokeAnswer> {
    const answer = await this.idempotency.run(
      {
        tenantId: command.tenantId,
        key: idempotencyKey,
        digest: requestDigest(command.principal.principalId, command.agentType, command.toolName, input),
        tool: command.toolName,
      },
      async (callId, identity) => {
        const answer = await this.once(
          agent,
          command,
          input,
          callId,
          identity === callId ? undefined : identity,
        );
        // A client that went away mid-call has no answer to replay: its key is freed for the retry.
        if (command.signal?.aborted) throw new ClientGoneError();
        return answer;
      },
    );
    const headers = headersOf(answer.envelope);
    return {
      status: answer.status,
      callId: answer.callId,
      envelope: answer.envelope,
      headers: answer.replayed ? Object.assign({ 'idempotent-replayed': 'true' }, headers) : headers,
    };
  }

  private async once(
    agent: Agent,
    command: InvokeCommand,
    input: unknown,
    callId: string | undefined,
    identity: string | undefined,
  ): Promise<InvokeAnswer> {
    return answerOf(await this.invoke(agent, command, input, callId, identity), command);
  }

  private invoke(
    agent: Agent,
    command: InvokeCommand,
    input: unknown,
    callId: string | undefined,
    identity: string | undefined,
  ): MaybePromise<ToolCallResult> {
    return agent.invoke(command.toolName, input, {
      locale: command.locale,
      sessionId: command.body.sessionId,
      callId,
      idempotencyIdentity: identity,
      clientIdempotencyKey: command.idempotencyKey,
      onEvent: command.onEvent,
      signal: command.signal,
      face: 'rest',
      traceparent: command.traceparent,
    });
  }
}

/** The route's answer for a call's result. */
function answerOf(result: ToolCallResult, command: InvokeCommand): InvokeAnswer {
  const envelope = command.view === 'model' ? modelView(result) : result.envelope;
  return {
    status: statusOfInvoke(result),
    callId: result.callId,
    envelope,
    headers: headersOf(envelope),
  };
}

/** The agent, once its tool is known to be bound (TOOL_NOT_FOUND otherwise). */
function withTool(agent: Agent, toolName: string): Agent {
  agent.tool(toolName);
  return agent;
}

/** The client left before its answer: nothing to send and nothing to remember. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}

/** No response headers (shared: nothing writes to an answer's headers). */
const NO_HEADERS: Record<string, string> = Object.freeze({});

/** Response headers an envelope implies: Retry-After on RATE_LIMITED. */
function headersOf(envelope: Envelope): Record<string, string> {
  if (isOk(envelope) || envelope.code !== ErrorCode.RATE_LIMITED) return NO_HEADERS;
  const seconds = (envelope.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  return seconds ? { 'retry-after': String(seconds) } : NO_HEADERS;
}

/** `?view=model`: what the model would see (the toModelOutput projection) instead of the full output. */
function modelView(result: ToolCallResult): Envelope {
  if (!isOk(result.envelope) || result.modelOutput === undefined) return result.envelope;
  return { data: result.modelOutput, status: 'ok' };
}
