import { Injectable } from '@nestjs/common';
import { AgentFactory, type AgentPrincipal } from '@toolgate/agents';
import { isOk, type Envelope, type Locale, type ToolCallEvent, type ToolCallResult } from '@toolgate/toolkit';
import { statusOfInvoke } from '../http/error-status.js';
import type { InvokeBody } from './agents.dto.js';

/** One invoke request, as the controller hands it over. */
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
}

/** What the controller sends back. */
export interface InvokeAnswer {
  readonly status: number;
  readonly callId: string;
  readonly envelope: Envelope;
}

/** `POST /v1/agents/:agentType/tools/:toolName/invoke`: build the agent, run the call, shape the answer. */
@Injectable()
export class InvokeToolUseCase {
  constructor(private readonly agents: AgentFactory) {}

  async execute(command: InvokeCommand): Promise<InvokeAnswer> {
    const agent = await this.agents.create(command.tenantId, command.agentType, command.principal);
    const result = await agent.invoke(command.toolName, command.body.input ?? {}, {
      locale: command.locale,
      sessionId: command.body.sessionId,
      callId: command.body.callId,
      clientIdempotencyKey: command.idempotencyKey,
      onEvent: command.onEvent,
    });
    return {
      status: statusOfInvoke(isOk(result.envelope) ? undefined : result.envelope.code),
      callId: result.callId,
      envelope: command.view === 'model' ? modelView(result) : result.envelope,
    };
  }
}

/** `?view=model`: what the model would see (the toModelOutput projection) instead of the full output. */
function modelView(result: ToolCallResult): Envelope {
  if (!isOk(result.envelope) || result.modelOutput === undefined) return result.envelope;
  return { data: result.modelOutput, status: 'ok' };
}
