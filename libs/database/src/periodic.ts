import type { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * Runs `task` every `intervalMs` in the background: the timer does not keep the process alive, a
 * run still going when the next one is due is skipped rather than doubled, and a failure goes to
 * `onError`. Returns the function that stops it (call it on application shutdown).
 */
export function runPeriodically(
  intervalMs: number,
  task: () => Promise<unknown>,
  onError: (err: Error) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void task()
      .catch(onError)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A provider's background pass, from application bootstrap to shutdown (`runPeriodically`
 * underneath): a failed pass is logged as a warning and the next one runs as usual. Subclasses
 * give the interval, the logger and the words that open the warning, and implement `sweep`.
 */
export abstract class PeriodicSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopSweep?: () => void;

  protected constructor(
    private readonly sweepIntervalMs: number,
    protected readonly logger: Logger,
    private readonly failureLabel: string,
  ) {}

  /** One pass; a rejection is logged, never thrown. */
  protected abstract sweep(): Promise<void>;

  onApplicationBootstrap(): void {
    this.stopSweep = runPeriodically(
      this.sweepIntervalMs,
      () => this.sweep(),
      (err) => this.logger.warn(`${this.failureLabel}: ${err.message}`),
    );
  }

  onApplicationShutdown(): void {
    this.stopSweep?.();
  }
}
