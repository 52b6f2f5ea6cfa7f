import { createHash } from 'node:crypto';
import type { DigestAlgorithm } from './crypto-suite.js';

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
 *
 * The hash is SHA-256, or SM3 for a checkpoint signed with SM2 (`sm2-sm3`, ADR 040): both give
 * 64 hex digits, and the checkpoint's signed `algorithm` says which.
 * @example nextPublicDigest(GENESIS_HASH, e.prevHash, e.hash, publicCanonical(e, e.seq))
 */
export function nextPublicDigest(
  previous: string,
  prevHash: string,
  hash: string,
  canonical: string,
  algorithm: DigestAlgorithm = 'sha256',
): string {
  return createHash(algorithm).update(`${previous}\n${prevHash}\n${hash}\n${canonical}`).digest('hex');
}
