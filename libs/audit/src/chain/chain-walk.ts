import { GENESIS_HASH } from '../audit-event.js';
import type { AuditEventRecord } from '../audit-fields.js';
import type { DigestAlgorithm } from './crypto-suite.js';
import { isKeyedLink, linkOf, type LinkKeys, type LinkVersion } from './event-hash.js';
import { nextPublicDigest } from './public-digest.js';

/** Where a walk along one tenant's chain stands: the last event it accepted. */
export interface ChainPosition {
  readonly seq: number;
  readonly hash: string;
  /**
   * A keyed (v2 or v3) link was accepted at this position. Chains are v1* then keyed links of
   * either suite in any order (ADR 040): the gateway has written only keyed links since the
   * upgrade, so an unkeyed link after a keyed one was forged.
   */
  readonly keyed: boolean;
  /**
   * The public digest (ADR 030) of the events since the stretch began, when the walk keeps one —
   * a checkpoint being sealed does; verification does not need to.
   */
  readonly digest?: string;
}

/**
 * How every message names an event: its seq in the tenant's chain and its storage id together, so
 * that neither is mistaken for the other (`GET /v1/audit/events/:id` takes the id).
 */
export const eventName = (e: { readonly seq: number; readonly id: string }): string =>
  `event seq ${e.seq} (id ${e.id})`;

/** Before the first event of a chain. */
export const GENESIS_POSITION: ChainPosition = { seq: 0, hash: GENESIS_HASH, keyed: false };

/**
 * Walks a chain event by event and says why an event does not extend it: missing, out of place,
 * modified, or an unkeyed link where only keyed ones may follow.
 */
export class ChainWalk {
  private position: ChainPosition;
  /** The link version of the last event: the one tried first on the next (one HMAC per event). */
  private lastVersion: LinkVersion = 2;

  /**
   * `digest` is the hash of the public digest the walk keeps, when `from` carries one: that of the
   * checkpoint being sealed (SHA-256, or SM3 for an SM2 checkpoint, ADR 040).
   */
  constructor(
    private readonly keys: LinkKeys,
    from: ChainPosition = GENESIS_POSITION,
    private readonly digest: DigestAlgorithm = 'sha256',
  ) {
    this.position = from;
  }

  /**
   * Goes on from `e` after a problem was reported at it, so that later breaks are found too (each
   * reported break is then judged against its own neighbours). Keyed-ness stays: once keyed, later
   * unkeyed links are still refused.
   */
  resumeAt(e: AuditEventRecord): void {
    this.position = {
      seq: e.seq,
      hash: e.hash,
      keyed: this.position.keyed || isKeyedLink(linkOf(this.keys, e, this.lastVersion).version),
    };
  }

  /** The last event accepted. */
  get at(): ChainPosition {
    return this.position;
  }

  /** Accepts `e` as the next event and returns null, or returns why not (and stays where it was). */
  step(e: AuditEventRecord): string | null {
    const expected = this.position.seq + 1;
    if (e.seq !== expected)
      return `event seq ${expected}${e.seq > expected + 1 ? `–${e.seq - 1}` : ''} is missing (deleted), before ${eventName(e)}`;
    if (e.prevHash !== this.position.hash)
      return `${eventName(e)} does not link to the event before it (inserted or reordered)`;
    const { version, canonical } = linkOf(this.keys, e, this.lastVersion);
    if (version === null)
      return `${eventName(e)} does not verify: modified after it was written, or forged without the chain key`;
    if (version === 1 && this.position.keyed)
      return `${eventName(e)} has an unkeyed (v1) link after keyed ones: not written by the gateway (forged)`;
    this.lastVersion = version;
    const digest = this.position.digest;
    this.position = {
      seq: e.seq,
      hash: e.hash,
      keyed: isKeyedLink(version),
      ...(digest === undefined
        ? {}
        : { digest: nextPublicDigest(digest, e.prevHash, e.hash, canonical, this.digest) }),
    };
    return null;
  }
}
