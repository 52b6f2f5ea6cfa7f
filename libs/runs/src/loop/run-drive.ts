import type { Agent } from '@toolgate/agents';
import { standingLostEnvelope, type PrincipalStanding } from '@toolgate/auth';
import type { RunEventType } from '@toolgate/contract';
import type { ModelClient, ModelRef, ModelTool } from '@toolgate/models';
import type { ErrorEnvelope, Locale } from '@toolgate/toolkit';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import type { RunStepEntity } from '../entities/run-step.entity.js';
import type { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import type { RunRef } from '../store/run.repository.js';
import type { SettledStep } from '../store/run-sql.js';
import type { RunStepTrace } from './run-step-trace.js';
import type { AgentRunSettings } from './run-settings.js';

/** What the starter of a run knows of it: just created, so nothing of it is stored yet; nor of its session when new. */
export interface CreatedRun {
  readonly newSession: boolean;
  /** The agent the starter made for the run's principal (not made twice per run). */
  readonly agent?: Agent;
}

/** How one drive of a run ended: finished (any final status), parked on approval, or stopped (lease lost, cancelled). */
export type DriveOutcome = 'finished' | 'parked' | 'stopped';

/** A run that ended in this drive, exactly as stored (the drive wrote every row of it). */
export interface FinishedRun {
  readonly run: AgentRunEntity;
  readonly steps: readonly RunStepEntity[];
  readonly calls: readonly RunToolCallEntity[];
}

/** A drive's outcome; a run finished by a drive that knew all of it comes with its rows. */
export interface DriveResult {
  readonly outcome: DriveOutcome;
  readonly finished: FinishedRun | null;
}

/** Everything one drive of a run works with (RunLoop makes it; the turns, calls and endings share it). */
export interface Drive {
  readonly run: AgentRunEntity;
  readonly ref: RunRef;
  readonly owner: string;
  readonly agent: Agent;
  readonly settings: AgentRunSettings;
  readonly model: ModelRef;
  readonly client: ModelClient;
  readonly tools: ModelTool[];
  /** `delegate_to_<agentType>` tool names offered to the model, and their agent types. */
  readonly delegates: ReadonlyMap<string, string>;
  /** A sub-agent's run: the session of the run that delegated to it. */
  readonly parentSessionId: string | null;
  readonly locale: Locale;
  /** Fires on cancel, a lost lease, or the deadline: reaches the model call and the running tools. */
  readonly signal: AbortSignal;
  /** Fires on cancel or a lost lease only (the deadline fails the run instead). */
  readonly stop: AbortSignal;
  readonly deadlineAt: Date;
  readonly emit: (type: RunEventType, data: Record<string, unknown>) => void;
  steps: RunStepEntity[];
  calls: RunToolCallEntity[];
  /** Calls stored by this drive: nothing else can have run them yet. */
  readonly fresh: Set<string>;
  usage: { inputTokens: number; outputTokens: number };
  /** Writes the drive does not wait for, awaited before it ends. */
  readonly writes: Promise<void>[];
  /** The last step, settled and not yet stored so: written with the drive's next write. */
  settled: SettledStep | null;
  /** The run as it ended in this drive. */
  finished?: FinishedRun;
  /** The session's earlier runs, read once per drive: they ended before this run was created. */
  history?: { input: string; output: string }[];
  /** The drive's step spans (model call, then tool calls), when tracing. */
  readonly trace: RunStepTrace;
  /** Created by the request that started it: its key was checked a moment ago, for the first step. */
  readonly startedNow: boolean;
  /**
   * What the drive's last write read for the next check (ADR 050): the tenant's day of tokens (its
   * rows) and the principal's standing. Each is used once, by the check that follows the write.
   */
  checked?: { tokens: readonly Record<string, unknown>[] | null; standing: boolean | null };
}

/** What ending a run needs: a drive, or the start of one that could not be prepared. */
export type Ending = Pick<Drive, 'ref' | 'owner' | 'emit' | 'run'> &
  Partial<Pick<Drive, 'usage' | 'steps' | 'calls' | 'settled' | 'finished'>>;

/** Why a drive stops early: its signal fired (cancel, lost lease, deadline). */
export class DriveStopped extends Error {}

/** A run's token usage as its events and answers show it. */
export const usageOf = (u: { inputTokens: number; outputTokens: number }) => ({
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  totalTokens: u.inputTokens + u.outputTokens,
});

/**
 * UNAUTHENTICATED when the run's key has been revoked (or its person's session ended) since it
 * started, else null: asked before every step, so a resumed run does nothing more for it.
 */
export async function standingLost(standing: PrincipalStanding, d: Drive): Promise<ErrorEnvelope | null> {
  const principal = d.run.principal;
  // Read with the drive's last write, just before this check (ADR 050); else asked now.
  const known = d.checked?.standing ?? null;
  if (d.checked) d.checked = { ...d.checked, standing: null };
  const valid = known ?? (await standing.stillValid(principal));
  return valid ? null : standingLostEnvelope(principal, d.locale);
}
