import { createHash, generateKeyPairSync } from 'node:crypto';
import { sm2 } from 'sm-crypto-v2';

/**
 * SM2 signatures as GB/T 32918.2 defines them (ADR 040): `e = SM3(Z_A ‖ M)` with
 * `Z_A = SM3(ENTL ‖ ID ‖ a ‖ b ‖ xG ‖ yG ‖ xA ‖ yA)` and the default distinguishing ID
 * `1234567812345678` (GB/T 35276 / GM/T 0009), then the SM2 signing equation; signatures are
 * DER `SEQUENCE { r INTEGER, s INTEGER }` in base64.
 *
 * Not Node's `crypto.sign`: with a key on the SM2 curve it computes plain ECDSA over SM3 (no Z_A,
 * another equation), and with a key that OpenSSL 3 loads as an SM2 key it hashes Z_A with an
 * empty ID (Node cannot set one) — neither verifies in GmSSL, BouncyCastle or Tongsuo with the
 * default ID, and Node aborts the process exporting such a key as SEC1. The arithmetic is
 * `sm-crypto-v2` (on `@noble/curves`); keys are read here from their DER, never as Node key objects.
 */

/** The distinguishing ID every party uses unless agreed otherwise (GB/T 35276-2017, 5.3). */
export const SM2_DEFAULT_ID = '1234567812345678';

/** OID 1.2.156.10197.1.301, the SM2 curve (sm2p256v1), as DER. */
const SM2_CURVE_OID = Buffer.from('06082a811ccf5501822d', 'hex');

/** An SM2 key pair as hex, the form the arithmetic takes. */
interface Sm2Hex {
  /** 32-byte private scalar, 64 hex digits (absent for a public key). */
  readonly d?: string;
  /** Uncompressed point `04 ‖ x ‖ y`, 130 hex digits. */
  readonly point: string;
}

/** One DER element: its tag and where its content lies in the buffer. */
interface Tlv {
  readonly tag: number;
  readonly start: number;
  readonly end: number;
}

function readTlv(der: Buffer, at: number): Tlv {
  if (at + 2 > der.length) throw new Error('truncated DER');
  const tag = der[at]!;
  let len = der[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const bytes = len & 0x7f;
    if (bytes < 1 || bytes > 3 || start + bytes > der.length) throw new Error('bad DER length');
    len = der.subarray(start, start + bytes).reduce((n, b) => n * 256 + b, 0);
    start += bytes;
  }
  if (start + len > der.length) throw new Error('truncated DER');
  return { tag, start, end: start + len };
}

/** The elements directly inside a constructed element. */
function children(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end;) {
    const t = readTlv(der, at);
    out.push(t);
    at = t.end;
  }
  return out;
}

const content = (der: Buffer, t: Tlv) => der.subarray(t.start, t.end);

function pemBody(pem: string, label: string): Buffer | null {
  const m = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(pem);
  return m ? Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64') : null;
}

function requireSm2Curve(der: Buffer, params: Tlv | undefined, what: string): void {
  if (!params || !content(der, params).includes(SM2_CURVE_OID))
    throw new Error(`${what} is not a key on the SM2 curve (OID 1.2.156.10197.1.301)`);
}

/** SEC1 `ECPrivateKey`: version, d, [0] curve, [1] public point. */
function fromEcPrivateKey(der: Buffer, seq: Tlv, curve?: Tlv): Sm2Hex {
  const parts = children(der, seq);
  const d = parts[1];
  if (!d || d.tag !== 0x04) throw new Error('not an EC private key');
  requireSm2Curve(der, curve ?? parts.find((p) => p.tag === 0xa0), 'the private key');
  const dHex = content(der, d).toString('hex').padStart(64, '0');
  return { d: dHex, point: sm2.getPublicKeyFromPrivateKey(dHex) };
}

/**
 * Reads an SM2 private key from PEM: PKCS#8 (`PRIVATE KEY`, what OpenSSL, GmSSL and Tongsuo write)
 * or SEC1 (`EC PRIVATE KEY`), on the SM2 curve. Throws on anything else.
 */
function readPrivateKey(pem: string): Sm2Hex {
  const pkcs8 = pemBody(pem, 'PRIVATE KEY');
  if (pkcs8) {
    const [, algorithm, key] = children(pkcs8, readTlv(pkcs8, 0));
    if (!algorithm || !key || key.tag !== 0x04) throw new Error('not a PKCS#8 private key');
    return fromEcPrivateKey(pkcs8, readTlv(pkcs8, key.start), algorithm);
  }
  const sec1 = pemBody(pem, 'EC PRIVATE KEY');
  if (sec1) return fromEcPrivateKey(sec1, readTlv(sec1, 0));
  throw new Error('the SM2 signing key must be a PEM private key (PKCS#8 or SEC1)');
}

/** Reads an SM2 public key from an SPKI PEM (`PUBLIC KEY`); throws on anything else. */
function readPublicKey(pem: string): Sm2Hex & { spki: Buffer } {
  const spki = pemBody(pem, 'PUBLIC KEY');
  if (!spki) throw new Error('not a PEM public key');
  const [algorithm, bits] = children(spki, readTlv(spki, 0));
  requireSm2Curve(spki, algorithm, 'the public key');
  const point = bits && bits.tag === 0x03 ? content(spki, bits).subarray(1) : Buffer.alloc(0);
  if (point.length !== 65 || point[0] !== 0x04)
    throw new Error('the SM2 public key is not an uncompressed point');
  return { point: point.toString('hex'), spki };
}

/** SPKI DER of an SM2 public point: `id-ecPublicKey` with the SM2 curve, the point as a BIT STRING. */
function spkiOf(pointHex: string): Buffer {
  const point = Buffer.concat([Buffer.from([0x00]), Buffer.from(pointHex, 'hex')]);
  const algorithm = Buffer.concat([Buffer.from('301306072a8648ce3d0201', 'hex'), SM2_CURVE_OID]);
  const bits = Buffer.concat([Buffer.from([0x03, point.length]), point]);
  const body = Buffer.concat([algorithm, bits]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

const pemOf = (der: Buffer, label: string) =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .replace(/.{64}/g, '$&\n')
    .replace(/\n?$/, '\n')}-----END ${label}-----\n`;

/** `sm2:` and the first 16 hex digits of the SM3 of the key's SPKI DER. */
const keyIdOf = (spki: Buffer) => `sm2:${createHash('sm3').update(spki).digest('hex').slice(0, 16)}`;

/** A new SM2 private key as PKCS#8 PEM (what the data directory keeps when no key is given). */
export function generateSm2PrivateKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'SM2' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

/** An SM2 public key: checks GB/T 32918.2 signatures (default ID). */
export class Sm2PublicKey {
  readonly keyId: string;
  private readonly point: string;
  private readonly spki: Buffer;

  /** From an SPKI PEM. */
  static fromPem(pem: string): Sm2PublicKey {
    const k = readPublicKey(pem);
    return new Sm2PublicKey(k.point, k.spki);
  }

  /** Whether a PEM text is an SPKI public key on the SM2 curve. */
  static isSm2Pem(pem: string): boolean {
    try {
      readPublicKey(pem);
      return true;
    } catch {
      return false;
    }
  }

  protected constructor(point: string, spki: Buffer = spkiOf(point)) {
    this.point = point;
    this.spki = spki;
    this.keyId = keyIdOf(spki);
  }

  /** Whether `signatureBase64` (DER r, s) is this key's SM2 signature over `data`. */
  verify(data: Buffer, signatureBase64: string): boolean {
    try {
      const der = Buffer.from(signatureBase64.trim(), 'base64').toString('hex');
      return sm2.doVerifySignature(data, der, this.point, { der: true, hash: true, userId: SM2_DEFAULT_ID });
    } catch {
      return false;
    }
  }

  /** SPKI PEM. */
  pem(): string {
    return pemOf(this.spki, 'PUBLIC KEY');
  }
}

/** An SM2 private key: signs as GB/T 32918.2 says, with the default ID. */
export class Sm2PrivateKey extends Sm2PublicKey {
  private readonly d: string;
  private readonly publicPoint: string;

  /** From a PKCS#8 or SEC1 PEM on the SM2 curve; throws on any other key. */
  static fromPrivatePem(pem: string): Sm2PrivateKey {
    const k = readPrivateKey(pem);
    return new Sm2PrivateKey(k.d!, k.point);
  }

  private constructor(d: string, point: string) {
    super(point);
    this.d = d;
    this.publicPoint = point;
  }

  /** The SM2 signature over `data`, DER in base64. */
  sign(data: Buffer): string {
    const der = sm2.doSignature(data, this.d, {
      der: true,
      hash: true,
      publicKey: this.publicPoint,
      userId: SM2_DEFAULT_ID,
    });
    return Buffer.from(der, 'hex').toString('base64');
  }
}
