import { createHash } from 'node:crypto';

/**
 * The public digest of a stretch of one tenant's chain (ADR 030): plain SHA-256, chained event by
 * event from the hash of the event before the stretch,
 *
 *     D₀ = fromHash
 *     Dᵢ = SHA-256(Dᵢ₋₁ "\n" prevHashᵢ "\n" hashᵢ "\n" publicCanonicalᵢ)
 *
 * A checkpoint signs the last one. Unlike a link (HMAC under the chain key, ADR 009) anyone can
 * recompute it from exported events, so a holder of the public key alone can check that the events
 * between two checkpoints are exactly the ones signed: none removed, added, reordered or edited.
 * @example nextPublicDigest(GENESIS_HASH, e.prevHash, e.hash, publicCanonical(e, e.seq))
 */
export function nextPublicDigest(
  previous: string,
  prevHash: string,
  hash: string,
  canonical: string,
): string {
  return createHash('sha256').update(`${previous}\n${prevHash}\n${hash}\n${canonical}`).digest('hex');
}
