import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runPeriodically } from '@toolgate/database';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { CheckpointRepository, type StoredCheckpoint } from './checkpoint.repository.js';
import { CheckpointSigner } from './checkpoint-signer.js';
import { ChainVerifier, type Verification } from './chain-verifier.js';

/** Signed checkpoints: periodically for tenants whose chain grew, on demand, and exported. */
@Injectable()
export class CheckpointService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditCheckpoints');
  readonly signer: CheckpointSigner;
  private stopSchedule?: () => void;

  constructor(
    private readonly checkpoints: CheckpointRepository,
    private readonly verifier: ChainVerifier,
    @Inject(AUDIT_OPTIONS) options: AuditOptions,
  ) {
    this.signer = new CheckpointSigner(options.signingKeyPem);
    this.intervalMs = options.checkpointIntervalMs;
  }

  private readonly intervalMs: number;

  onApplicationBootstrap(): void {
    if (this.intervalMs <= 0) return;
    this.stopSchedule = runPeriodically(
      this.intervalMs,
      () => this.checkpointAll(),
      (err) => this.logger.warn(`checkpoint failed: ${err.message}`),
    );
  }

  onApplicationShutdown(): void {
    this.stopSchedule?.();
  }

  /** Signs a checkpoint for one tenant now; null when its chain is empty. */
  checkpoint(tenantId: string): Promise<StoredCheckpoint | null> {
    return this.checkpoints.record(tenantId, (s) => ({
      keyId: this.signer.keyId,
      signature: this.signer.sign(s),
    }));
  }

  /** Signs checkpoints for every tenant (or those given) whose chain grew since the last one. */
  async checkpointAll(tenantIds?: readonly string[]): Promise<StoredCheckpoint[]> {
    const due = new Set(await this.checkpoints.tenantsWithUncheckpointedEvents());
    const out: StoredCheckpoint[] = [];
    for (const t of tenantIds ?? [...due]) {
      if (!due.has(t)) continue;
      const cp = await this.checkpoint(t);
      if (cp) out.push(cp);
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

  /** Recomputes the chains of the given tenants (all with a chain when none given). */
  async verify(
    tenantIds: readonly string[] | null,
    range: { from?: Date; to?: Date },
  ): Promise<Verification> {
    return this.verifier.verify(this.signer, tenantIds ?? (await this.checkpoints.chainTenants()), range);
  }
}
