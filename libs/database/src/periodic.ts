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
