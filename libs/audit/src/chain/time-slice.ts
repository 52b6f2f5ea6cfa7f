/** The longest stretch of verification work, across every verification running, per event-loop turn. */
const SLICE_MS = 8;

let turnStart = performance.now();
let nextTurn: Promise<void> | undefined;

/**
 * Gives the event loop a turn once verification work (hashes, signatures, JSON) has run SLICE_MS in
 * this turn. The budget is shared by every verification in the process: two verifications that each
 * yielded on their own would resume in the same turn and add up, holding up the calls served
 * meanwhile. All who are over the budget wait for the same next turn.
 */
export async function yieldIfSliceSpent(): Promise<void> {
  if (performance.now() - turnStart < SLICE_MS) return;
  nextTurn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      nextTurn = undefined;
      turnStart = performance.now();
      resolve();
    }),
  );
  await nextTurn;
}
