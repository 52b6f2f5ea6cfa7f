import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7: time-ordered, so ids written together sit together in B-tree indexes.
 * Built from Node's pooled `randomUUID()` with its first 48 bits replaced by the millisecond clock.
 */
export function uuidv7(now: number = Date.now()): string {
  const random = randomUUID();
  const ts = now.toString(16).padStart(12, '0');
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}
