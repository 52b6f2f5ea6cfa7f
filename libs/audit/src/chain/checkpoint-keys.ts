import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { sha256Hex } from '@toolgate/toolkit';
import { Sm2PublicKey } from './sm2.js';

/** The signature schemes of checkpoints and evidence manifests, as keys are published. */
export type CheckpointKeyAlgorithm = 'Ed25519' | 'SM2';

/** A public key that checks checkpoints and manifests, whichever scheme (ADR 030, 040). */
export interface CheckpointPublicKey {
  /** `ed25519:` + 16 hex of SHA-256, or `sm2:` + 16 hex of SM3, of the key's SPKI DER. */
  readonly keyId: string;
  readonly algorithm: CheckpointKeyAlgorithm;
  /** SPKI PEM. */
  readonly publicKeyPem: string;
  /** Whether `signatureBase64` is this key's signature over `data`. */
  verify(data: Buffer, signatureBase64: string): boolean;
}

/** The key id of an Ed25519 public key. */
export const ed25519KeyId = (key: KeyObject): string =>
  `ed25519:${sha256Hex(key.export({ type: 'spki', format: 'der' })).slice(0, 16)}`;

/** An Ed25519 public key as a CheckpointPublicKey. */
export function ed25519PublicKey(key: KeyObject): CheckpointPublicKey {
  return {
    keyId: ed25519KeyId(key),
    algorithm: 'Ed25519',
    publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString(),
    verify(data, signatureBase64) {
      try {
        return verify(null, data, key, Buffer.from(signatureBase64.trim(), 'base64'));
      } catch {
        return false;
      }
    },
  };
}

/** An SM2 public key as a CheckpointPublicKey. */
export function sm2PublicKey(key: Sm2PublicKey): CheckpointPublicKey {
  return {
    keyId: key.keyId,
    algorithm: 'SM2',
    publicKeyPem: key.pem(),
    verify: (data, signatureBase64) => key.verify(data, signatureBase64),
  };
}

/**
 * A published public key (SPKI PEM), its scheme recognised from the key itself: SM2 when on the
 * SM2 curve, Ed25519 otherwise; anything else throws. Its id is computed, never taken on trust.
 */
export function checkpointPublicKeyFromPem(pem: string): CheckpointPublicKey {
  if (Sm2PublicKey.isSm2Pem(pem)) return sm2PublicKey(Sm2PublicKey.fromPem(pem));
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error('a checkpoint key is an Ed25519 or an SM2 public key (SPKI PEM)');
  return ed25519PublicKey(key);
}
