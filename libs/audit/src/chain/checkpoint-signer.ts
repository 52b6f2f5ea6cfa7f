import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from '@toolgate/toolkit';

/** What a checkpoint states: tenant T's chain had `seq` events, ending in `headHash`, at `signedAt`. */
export interface CheckpointStatement {
  readonly tenantId: string;
  readonly seq: number;
  readonly headHash: string;
  readonly signedAt: string;
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

  /** The bytes a signature covers. */
  static payload(s: CheckpointStatement): Buffer {
    return Buffer.from(
      canonicalJson({ v: 1, tenantId: s.tenantId, seq: s.seq, headHash: s.headHash, signedAt: s.signedAt }),
    );
  }

  sign(statement: CheckpointStatement): string {
    return sign(null, CheckpointSigner.payload(statement), this.privateKey).toString('base64');
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
