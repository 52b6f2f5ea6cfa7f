import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7: time-ordered, so ids written together sit together in B-tree indexes.
 * Built from Node's pooled `randomUUID()` with its first 48 bits replaced by the millisecond clock:
 * the clock's two hex groups, then `7` and the random UUID from its version digit on (its variant
 * bits stay those of RFC 9562).
 */
export function uuidv7(now: number = Date.now()): string {
  const high = Math.floor(now / 0x10000)
    .toString(16)
    .padStart(8, '0');
  const low = (now % 0x10000).toString(16).padStart(4, '0');
  return `${high}-${low}-7${randomUUID().slice(15)}`;
}
