import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runPeriodically } from '@toolgate/database';
import { AuditAlarms } from '../alarms/audit-alarms.js';
import { CheckpointArchive } from '../archive/checkpoint-archive.js';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { GENESIS_POSITION, type ChainPosition } from './chain-walk.js';
import {
  ChainVerifier,
  isChainProblem,
  type ChainProblem,
  type TenantVerification,
  type Verification,
  type VerifyProgress,
} from './chain-verifier.js';
import { CheckpointRepository, type StoredCheckpoint } from './checkpoint.repository.js';
import { CheckpointSigner, type CheckpointStatement } from './checkpoint-signer.js';
import { digestAlgorithmOf } from './crypto-suite.js';

/** A checkpoint not signed: the chain since the tenant's previous checkpoint does not verify. */
export interface CheckpointRefusal {
  readonly tenantId: string;
  readonly problem: string;
  readonly firstBrokenEventId?: string;
  readonly firstBrokenSeq?: number;
}

/** What one checkpoint run did: the checkpoints it signed and the tenants it refused. */
export interface CheckpointRun {
  readonly checkpoints: StoredCheckpoint[];
  readonly refused: CheckpointRefusal[];
}

/** A scheduled checkpoint run refused at least one tenant (see CheckpointRefusal). */
export class CheckpointRefusedError extends Error {
  constructor(readonly refused: readonly CheckpointRefusal[]) {
    super(`checkpoints refused: ${refused.map((r) => `${r.tenantId}: ${r.problem}`).join('; ')}`);
    this.name = 'CheckpointRefusedError';
  }
}

/**
 * Signed checkpoints: periodically for tenants whose chain grew, on demand, and exported.
 *
 * A checkpoint is signed only over a head whose events since the previous checkpoint verify
 * (ADR 009): a signature is what outlives the database, and it must never vouch for events that
 * someone with database access appended.
 */
@Injectable()
export class CheckpointService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditCheckpoints');
  readonly signer: CheckpointSigner;
  private readonly intervalMs: number;
  private stopSchedule?: () => void;
  /** Tenants the last whole verification on this gateway found broken. */
  private readonly knownBroken = new Map<string, TenantVerification>();

  constructor(
    private readonly checkpoints: CheckpointRepository,
    private readonly verifier: ChainVerifier,
    private readonly archive: CheckpointArchive,
    @Inject(AUDIT_OPTIONS) options: AuditOptions,
    @Optional() private readonly alarms?: AuditAlarms,
  ) {
    this.signer = new CheckpointSigner(options.signingKeyPem, {
      suite: options.cryptoSuite,
      ...(options.smSigningKeyPem ? { sm2PrivateKeyPem: options.smSigningKeyPem } : {}),
    });
    this.intervalMs = options.checkpointIntervalMs;
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs <= 0) return;
    this.stopSchedule = runPeriodically(
      this.intervalMs,
      async () => {
        const { refused } = await this.run();
        if (refused.length) throw new CheckpointRefusedError(refused);
      },
      (err) =>
        err instanceof CheckpointRefusedError
          ? this.logger.error(`scheduled run: ${err.message}`)
          : this.logger.warn(`checkpoint failed: ${err.message}`),
    );
  }

  onApplicationShutdown(): void {
    this.stopSchedule?.();
  }

  /** Signs a checkpoint for one tenant now; null when its chain is empty or does not verify. */
  async checkpoint(tenantId: string): Promise<StoredCheckpoint | null> {
    const sealed = await this.seal(tenantId);
    return sealed && 'signature' in sealed ? sealed : null;
  }

  /**
   * Signs checkpoints for every tenant (or those given) whose chain grew since the last one; a
   * tenant whose chain does not verify gets none (see `run` for the refusals).
   */
  async checkpointAll(tenantIds?: readonly string[]): Promise<StoredCheckpoint[]> {
    return (await this.run(tenantIds)).checkpoints;
  }

  /** Like `checkpointAll`, and says which tenants were refused and why. */
  async run(tenantIds?: readonly string[]): Promise<CheckpointRun> {
    const due = new Set(await this.checkpoints.tenantsWithUncheckpointedEvents());
    const refused = await this.brokenAmong(tenantIds, due);
    const out: CheckpointRun = { checkpoints: [], refused };
    for (const t of tenantIds ?? [...due]) {
      if (!due.has(t) || refused.some((r) => r.tenantId === t)) continue;
      const sealed = await this.seal(t);
      if (sealed && 'signature' in sealed) out.checkpoints.push(sealed);
      else if (sealed) out.refused.push(sealed);
    }
    return out;
  }

  /** Checkpoints with the public key, for an outside anchor. */
  async export(
    tenantId?: string,
  ): Promise<{ publicKeyPem: string; keyId: string; checkpoints: StoredCheckpoint[] }> {
    return {
      publicKeyPem: this.signer.publicKeyPem(),
      keyId: this.signer.keyId,
      checkpoints: await this.checkpoints.list(tenantId),
    };
  }

  /**
   * The keys checkpoints are signed with: the Ed25519 key, and the SM2 key when the gateway has one
   * (ADR 040: checkpoints of both suites verify side by side); a rotated-out key is not kept.
   */
  publicKeys(): { keyId: string; algorithm: 'Ed25519' | 'SM2'; publicKeyPem: string }[] {
    return this.signer.publicKeys();
  }

  /**
   * Recomputes the chains of the given tenants (all with a chain when none given), whole, in a
   * time range, or incrementally from each one's newest checkpoint. A whole verification is
   * remembered per tenant: a chain it found broken gets no checkpoint until one finds it whole.
   */
  async verify(
    tenantIds: readonly string[] | null,
    range: { from?: Date; to?: Date },
    o: { incremental?: boolean; onProgress?: VerifyProgress } = {},
  ): Promise<Verification> {
    const v = await this.verifier.verify(
      this.signer,
      tenantIds ?? (await this.checkpoints.chainTenants()),
      range,
      o,
    );
    for (const t of v.tenants)
      if (!t.ok)
        this.alarms?.raise('audit_chain_broken', t.problem ?? 'the chain does not verify', t.tenantId);
    if (!o.incremental && range.from === undefined && range.to === undefined)
      for (const t of v.tenants) {
        if (t.ok) this.knownBroken.delete(t.tenantId);
        else this.knownBroken.set(t.tenantId, t);
      }
    return v;
  }

  /** The tenants asked for (all with a chain when none given) that must not be signed now. */
  private async brokenAmong(
    tenantIds: readonly string[] | undefined,
    due: ReadonlySet<string>,
  ): Promise<CheckpointRefusal[]> {
    const out: CheckpointRefusal[] = [];
    for (const tenantId of tenantIds ?? (await this.checkpoints.chainTenants())) {
      const known = this.knownBroken.get(tenantId);
      if (known) {
        out.push(refusalOf(tenantId, known));
        continue;
      }
      // A tenant with new events is verified by its seal; the others from their newest checkpoint,
      // so that deleted newest events (and heads moved back) are refused rather than answered "ok".
      if (due.has(tenantId) || !tenantIds) continue;
      const [t] = (await this.verifier.verify(this.signer, [tenantId], {}, { incremental: true })).tenants;
      if (t && !t.ok) out.push(refusalOf(tenantId, t));
    }
    return out;
  }

  /**
   * Verifies the events since the previous checkpoint, then signs the head. The bulk is verified
   * without the chain lock, so the tenant's writers wait only while the tail that arrived in the
   * meantime is verified under it — and the signature covers exactly the head that lock pins.
   */
  private async seal(tenantId: string): Promise<StoredCheckpoint | CheckpointRefusal | null> {
    const start = await this.startPosition(tenantId);
    if (isChainProblem(start)) return this.refuse(tenantId, start);
    const head = await this.checkpoints.chainHead(tenantId);
    if (!head || head.seq === 0) return null;
    // The digest is the one the new checkpoint's algorithm names: SM3 under the sm suite (ADR 040).
    const algorithm = this.signer.algorithm;
    const digest = digestAlgorithmOf(algorithm);
    const verified = await this.verifier.walkTo(tenantId, start, head, undefined, digest);
    if (isChainProblem(verified)) return this.refuse(tenantId, verified);
    const sealed = await this.checkpoints.record<ChainProblem>(tenantId, async (head, em) => {
      const tail = await this.verifier.walkTo(tenantId, verified, head, em, digest);
      if (isChainProblem(tail)) return tail;
      // The walk began at the previous checkpoint with its digest seeded (startPosition), so it
      // carries the public digest of exactly the stretch this checkpoint covers.
      const statement: CheckpointStatement = {
        ...head,
        ...(algorithm === 'sm2-sm3' ? { algorithm } : {}),
        fromSeq: start.seq,
        fromHash: start.hash,
        publicDigest: tail.digest!,
      };
      return { ...statement, keyId: this.signer.keyId, signature: this.signer.sign(statement) };
    });
    if (sealed && 'problem' in sealed) return this.refuse(tenantId, sealed);
    if (sealed) this.archive.export(sealed);
    return sealed;
  }

  /**
   * Where verification resumes: the newest checkpoint whose signature holds, or the genesis — with
   * the public digest seeded with the hash there, so the walk computes the next checkpoint's.
   */
  private async startPosition(tenantId: string): Promise<ChainPosition | ChainProblem> {
    const cp = await this.checkpoints.latest(tenantId);
    if (!cp) return { ...GENESIS_POSITION, digest: GENESIS_POSITION.hash };
    if (!this.signer.verify(cp, cp.signature))
      return {
        problem: `checkpoint at seq ${cp.seq} has an invalid signature (forged or signed with another key)`,
      };
    const at = await this.verifier.positionAt(cp);
    return isChainProblem(at) ? at : { ...at, digest: at.hash };
  }

  private refuse(tenantId: string, p: ChainProblem): CheckpointRefusal {
    this.logger.error(`no checkpoint signed for ${tenantId}: the chain does not verify: ${p.problem}`);
    this.alarms?.raise('audit_chain_broken', p.problem, tenantId);
    return {
      tenantId,
      problem: p.problem,
      ...(p.event ? { firstBrokenEventId: p.event.id, firstBrokenSeq: p.event.seq } : {}),
    };
  }
}

function refusalOf(tenantId: string, t: TenantVerification): CheckpointRefusal {
  return {
    tenantId,
    problem: t.problem ?? 'the chain does not verify',
    ...(t.firstBrokenEventId ? { firstBrokenEventId: t.firstBrokenEventId } : {}),
    ...(t.firstBrokenSeq !== undefined ? { firstBrokenSeq: t.firstBrokenSeq } : {}),
  };
}
