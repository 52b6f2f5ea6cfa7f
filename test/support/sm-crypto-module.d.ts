// sm-crypto 0.5.8 ships no types: the part the SM2 interoperability spec uses (ADR 040). It is a
// devDependency, an independent implementation to hold ours against; the gateway uses sm-crypto-v2.
declare module 'sm-crypto' {
  interface SignOptions {
    der?: boolean;
    hash?: boolean;
    publicKey?: string;
    userId?: string;
  }
  export const sm2: {
    generateKeyPairHex(): { privateKey: string; publicKey: string };
    doSignature(msg: string | number[], privateKey: string, options?: SignOptions): string;
    doVerifySignature(
      msg: string | number[],
      signHex: string,
      publicKey: string,
      options?: Omit<SignOptions, 'publicKey'>,
    ): boolean;
  };
  export function sm3(msg: string | number[], options?: { key?: string | number[]; mode?: 'hmac' }): string;
}
