import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from '@toolgate/toolkit';

/**
 * What a checkpoint states: tenant T's chain had `seq` events, ending in `headHash`, at `signedAt`;
 * and (version 2, ADR 030) that the events after `fromSeq` (whose event had the hash `fromHash`;
 * 0 and the genesis hash at the start of the chain) up to `seq` have the public digest
 * `publicDigest`, which anyone can recompute from exported events. Checkpoints signed before have
 * no stretch (version 1): their events can be checked only by the gateway.
 */
export interface CheckpointStatement {
  readonly tenantId: string;
  readonly seq: number;
  readonly headHash: string;
  readonly signedAt: string;
  readonly fromSeq?: number;
  readonly fromHash?: string;
  readonly publicDigest?: string;
}

/**
 * The bytes a checkpoint's Ed25519 signature covers: the canonical JSON of its statement, with
 * `"v":2` and the stretch when it has a public digest, `"v":1` and none otherwise.
 * @example verify(null, checkpointPayload(cp), publicKey, Buffer.from(cp.signature, 'base64'))
 */
export function checkpointPayload(s: CheckpointStatement): Buffer {
  const base = { tenantId: s.tenantId, seq: s.seq, headHash: s.headHash, signedAt: s.signedAt };
  return Buffer.from(
    canonicalJson(
      s.publicDigest === undefined
        ? { v: 1, ...base }
        : { v: 2, ...base, fromSeq: s.fromSeq, fromHash: s.fromHash, publicDigest: s.publicDigest },
    ),
  );
}

/**
 * Signs and checks checkpoints with Ed25519. The private key lives outside the database (config or
 * environment), so someone who can rewrite the tables cannot forge a checkpoint that hides it.
 */
export class CheckpointSigner {
  private readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** A short fingerprint of the public key, stored with every checkpoint. */
  readonly keyId: string;

  constructor(privateKeyPem: string) {
    this.privateKey = createPrivateKey(privateKeyPem);
    if (this.privateKey.asymmetricKeyType !== 'ed25519')
      throw new Error('the audit signing key must be an Ed25519 private key (PEM)');
    this.publicKey = createPublicKey(this.privateKey);
    this.keyId = `ed25519:${sha256Hex(this.publicKey.export({ type: 'spki', format: 'der' })).slice(0, 16)}`;
  }

  /** The bytes a signature covers (see `checkpointPayload`). */
  static payload(s: CheckpointStatement): Buffer {
    return checkpointPayload(s);
  }

  sign(statement: CheckpointStatement): string {
    return sign(null, CheckpointSigner.payload(statement), this.privateKey).toString('base64');
  }

  /**
   * Signs other statements of the trail than checkpoints (an evidence bundle's manifest). Their
   * JSON carries a `kind` no checkpoint payload has, so neither can pass for the other.
   */
  signDocument(bytes: Buffer): string {
    return sign(null, bytes, this.privateKey).toString('base64');
  }

  verify(statement: CheckpointStatement, signature: string): boolean {
    try {
      return verify(
        null,
        CheckpointSigner.payload(statement),
        this.publicKey,
        Buffer.from(signature, 'base64'),
      );
    } catch {
      return false;
    }
  }

  /** The public key in PEM, for anyone who wants to check exported checkpoints independently. */
  publicKeyPem(): string {
    return this.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }
}
