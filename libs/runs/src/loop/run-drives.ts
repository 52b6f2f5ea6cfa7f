import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import type { DriveResult } from './run-drive.js';

/**
 * The drives under way on this gateway, as a delegating run sees them when it follows its child
 * run (SubAgents). RunDriver is the one implementation: an abstract class here, as the injection
 * token, so that SubAgents — used by the loop that RunDriver drives — imports no RunDriver.
 */
export abstract class RunDrives {
  /** This gateway's lease owner name. */
  abstract readonly owner: string;
  /** The drive of a run under way on this gateway, if any. */
  abstract current(runId: string): Promise<DriveResult> | undefined;
  /** Drives a run whose lease this gateway has just taken; never rejects. */
  abstract drive(run: AgentRunEntity): Promise<DriveResult>;
}
