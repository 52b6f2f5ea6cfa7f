import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Keeps a background job to a share of the wall clock: after each step it rests in proportion to
 * how long the step took (a step of 8 ms at a quarter share rests 24 ms), never less than
 * `minPauseMs`. The archive and the purge work in small steps on the same database and event loop
 * as the calls; resting in proportion holds them to their share whatever the machine's speed,
 * where a fixed pause is too long on a fast machine and too short on a busy one.
 */
export class WorkPacer {
  private stepStarted = performance.now();

  constructor(
    private readonly share: number,
    private readonly minPauseMs = 0,
  ) {}

  /** Rests after the step that began at the last rest (or at construction). */
  async rest(): Promise<void> {
    const worked = performance.now() - this.stepStarted;
    const pause = Math.max(this.minPauseMs, this.share >= 1 ? 0 : (worked * (1 - this.share)) / this.share);
    // setImmediate at least: the calls waiting behind a step run before the next one starts.
    if (pause >= 1) await sleep(pause);
    else await new Promise<void>((resolve) => setImmediate(resolve));
    this.stepStarted = performance.now();
  }
}
