/**
 * The cryptography of the trail, chosen per platform (`audit.cryptoSuite`, ADR 040):
 * `standard` — HMAC-SHA256 links (v2), checkpoints signed with Ed25519 over a SHA-256 public digest;
 * `sm` — the national standards: HMAC-SM3 links (v3, GB/T 32905), checkpoints signed with SM2
 * (GB/T 32918.2) over an SM3 public digest. Each event and checkpoint records its own algorithm
 * (the link version in its hashed text; `algorithm` in the signed statement), so a chain written
 * under both verifies side by side after a switch, in either direction.
 */
export type CryptoSuite = 'standard' | 'sm';

/** The suites, for settings schemas. */
export const CRYPTO_SUITES = ['standard', 'sm'] as const satisfies readonly CryptoSuite[];

/** What a platform that says nothing uses. */
export const DEFAULT_CRYPTO_SUITE: CryptoSuite = 'standard';

/**
 * How a checkpoint was signed, and which hash its public digest uses. `ed25519-sha256` is what
 * every checkpoint without an `algorithm` was (statements v1 and v2); `sm2-sm3` is statement v3.
 */
export type CheckpointAlgorithm = 'ed25519-sha256' | 'sm2-sm3';

/** The hash of a public digest (ADR 030). */
export type DigestAlgorithm = 'sha256' | 'sm3';

/** The checkpoint algorithm a suite signs with. */
export const checkpointAlgorithmOf = (suite: CryptoSuite): CheckpointAlgorithm =>
  suite === 'sm' ? 'sm2-sm3' : 'ed25519-sha256';

/** The hash of the public digest a checkpoint of this algorithm signs. */
export const digestAlgorithmOf = (a: CheckpointAlgorithm | undefined): DigestAlgorithm =>
  a === 'sm2-sm3' ? 'sm3' : 'sha256';
