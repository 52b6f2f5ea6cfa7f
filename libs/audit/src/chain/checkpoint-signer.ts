import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from '@toolgate/toolkit';
import { ed25519PublicKey, sm2PublicKey, type CheckpointPublicKey } from './checkpoint-keys.js';
import { checkpointAlgorithmOf, type CheckpointAlgorithm, type CryptoSuite } from './crypto-suite.js';
import { Sm2PrivateKey } from './sm2.js';

/**
 * What a checkpoint states: tenant T's chain had `seq` events, ending in `headHash`, at `signedAt`;
 * and (version 2, ADR 030) that the events after `fromSeq` (whose event had the hash `fromHash`;
 * 0 and the genesis hash at the start of the chain) up to `seq` have the public digest
 * `publicDigest`, which anyone can recompute from exported events. Checkpoints signed before have
 * no stretch (version 1): their events can be checked only by the gateway. Version 3 (ADR 040)
 * adds `algorithm: "sm2-sm3"`: an SM3 public digest and an SM2 signature.
 */
export interface CheckpointStatement {
  readonly tenantId: string;
  readonly seq: number;
  readonly headHash: string;
  readonly signedAt: string;
  readonly fromSeq?: number;
  readonly fromHash?: string;
  readonly publicDigest?: string;
  /** `sm2-sm3` for the `sm` suite; absent for Ed25519 over SHA-256, as every older checkpoint. */
  readonly algorithm?: 'sm2-sm3';
}

/**
 * The bytes a checkpoint's signature covers: the canonical JSON of its statement, with `"v":3` and
 * its algorithm when it is an SM2 one, `"v":2` and the stretch when it has a public digest, `"v":1`
 * and none otherwise. The algorithm is inside what is signed, so it cannot be swapped.
 * @example verify(null, checkpointPayload(cp), publicKey, Buffer.from(cp.signature, 'base64'))
 */
export function checkpointPayload(s: CheckpointStatement): Buffer {
  const base = { tenantId: s.tenantId, seq: s.seq, headHash: s.headHash, signedAt: s.signedAt };
  const stretch = { fromSeq: s.fromSeq, fromHash: s.fromHash, publicDigest: s.publicDigest };
  return Buffer.from(
    canonicalJson(
      s.algorithm === 'sm2-sm3'
        ? { v: 3, algorithm: s.algorithm, ...base, ...stretch }
        : s.publicDigest === undefined
          ? { v: 1, ...base }
          : { v: 2, ...base, ...stretch },
    ),
  );
}

/** The algorithm a stored statement was signed with (absent: Ed25519 over SHA-256). */
export const algorithmOf = (s: Pick<CheckpointStatement, 'algorithm'>): CheckpointAlgorithm =>
  s.algorithm ?? 'ed25519-sha256';

/**
 * Signs and checks checkpoints: with Ed25519, or with SM2 under the `sm` suite (ADR 040). The
 * private keys live outside the database (config or environment), so someone who can rewrite the
 * tables cannot forge a checkpoint that hides it. Both keys are kept when there are both, so the
 * checkpoints signed before a switch of suite still verify.
 */
export class CheckpointSigner {
  private readonly privateKey: KeyObject;
  private readonly sm2?: Sm2PrivateKey;
  private readonly ed25519: CheckpointPublicKey;
  private readonly sm2Public?: CheckpointPublicKey;
  /** What new checkpoints are signed with. */
  readonly algorithm: CheckpointAlgorithm;
  /** The Ed25519 public key (kept for callers of the single-key API). */
  readonly publicKey: KeyObject;
  /** A short fingerprint of the signing key, stored with every checkpoint. */
  readonly keyId: string;

  /**
   * @param privateKeyPem the Ed25519 key (PKCS#8 PEM)
   * @param options `suite` (default `standard`) and the SM2 key (PKCS#8 or SEC1 PEM), required by `sm`
   */
  constructor(privateKeyPem: string, options: { suite?: CryptoSuite; sm2PrivateKeyPem?: string } = {}) {
    this.privateKey = createPrivateKey(privateKeyPem);
    if (this.privateKey.asymmetricKeyType !== 'ed25519')
      throw new Error('the audit signing key must be an Ed25519 private key (PEM)');
    this.publicKey = createPublicKey(this.privateKey);
    this.ed25519 = ed25519PublicKey(this.publicKey);
    if (options.sm2PrivateKeyPem) {
      this.sm2 = Sm2PrivateKey.fromPrivatePem(options.sm2PrivateKeyPem);
      this.sm2Public = sm2PublicKey(this.sm2);
    }
    this.algorithm = checkpointAlgorithmOf(options.suite ?? 'standard');
    if (this.algorithm === 'sm2-sm3' && !this.sm2)
      throw new Error('audit.cryptoSuite "sm" needs an SM2 signing key (TOOLGATE_AUDIT_SM2_SIGNING_KEY)');
    this.keyId = this.active().keyId;
  }

  /** The bytes a signature covers (see `checkpointPayload`). */
  static payload(s: CheckpointStatement): Buffer {
    return checkpointPayload(s);
  }

  /** Signs a statement with the key its `algorithm` names (SM2 for `sm2-sm3`, Ed25519 otherwise). */
  sign(statement: CheckpointStatement): string {
    const payload = CheckpointSigner.payload(statement);
    if (algorithmOf(statement) === 'sm2-sm3') {
      if (!this.sm2) throw new Error('no SM2 signing key');
      return this.sm2.sign(payload);
    }
    return sign(null, payload, this.privateKey).toString('base64');
  }

  /**
   * Signs other statements of the trail than checkpoints (an evidence bundle's manifest), with the
   * key new checkpoints are signed with (`keyId`). Their JSON carries a `kind` no checkpoint
   * payload has, so neither can pass for the other.
   */
  signDocument(bytes: Buffer): string {
    return this.algorithm === 'sm2-sm3'
      ? this.sm2!.sign(bytes)
      : sign(null, bytes, this.privateKey).toString('base64');
  }

  /** Whether a stored checkpoint's signature holds, under the key of the algorithm it names. */
  verify(statement: CheckpointStatement, signature: string): boolean {
    const key = algorithmOf(statement) === 'sm2-sm3' ? this.sm2Public : this.ed25519;
    return !!key && key.verify(CheckpointSigner.payload(statement), signature);
  }

  /** The signing key's public key in PEM, for anyone who wants to check exported checkpoints. */
  publicKeyPem(): string {
    return this.active().publicKeyPem;
  }

  /** Every public key checkpoints of this gateway may carry: Ed25519, and SM2 when there is one. */
  publicKeys(): { keyId: string; algorithm: 'Ed25519' | 'SM2'; publicKeyPem: string }[] {
    return [this.ed25519, ...(this.sm2Public ? [this.sm2Public] : [])].map((k) => ({
      keyId: k.keyId,
      algorithm: k.algorithm,
      publicKeyPem: k.publicKeyPem,
    }));
  }

  private active(): CheckpointPublicKey {
    return this.algorithm === 'sm2-sm3' ? this.sm2Public! : this.ed25519;
  }
}
