import { dateTime3, jsonColumn } from '@toolgate/database';
import type { RiskLevel } from '@toolgate/contract';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { UpstreamToolDefinition } from '../sources/tool-source.js';

/** active: callable · quarantined: changed upstream, waits for review · removed: gone upstream. */
export const UPSTREAM_TOOL_STATUSES = ['active', 'quarantined', 'removed'] as const;
export type UpstreamToolStatus = (typeof UPSTREAM_TOOL_STATUSES)[number];

/** One imported tool of an upstream server, with the definition pinned at import (or last review). */
@Entity('upstream_tools')
export class UpstreamToolEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** `<server>__<tool>`, unique per tenant: the name bindings and agents use. */
  @PrimaryColumn({ name: 'toolgate_name', type: 'varchar', length: 64 })
  toolgateName!: string;

  @Column({ name: 'server_id', type: 'varchar', length: 36 })
  serverId!: string;

  @Column({ name: 'upstream_name', type: 'varchar', length: 128 })
  upstreamName!: string;

  @Column({ name: 'risk_level', type: 'varchar', length: 2 })
  riskLevel!: RiskLevel;

  @Column({ name: 'data_domains', ...jsonColumn() })
  dataDomains!: string[];

  @Column({ name: 'timeout_ms', type: 'int', nullable: true })
  timeoutMs!: number | null;

  @Column({ name: 'pinned_definition', ...jsonColumn() })
  pinnedDefinition!: UpstreamToolDefinition;

  @Column({ name: 'pinned_fingerprint', type: 'varchar', length: 64 })
  pinnedFingerprint!: string;

  /**
   * The fingerprint scheme the pinned definition was taken with (`FINGERPRINT_VERSION`): 1 for
   * OpenAPI tools pinned before call plans were, which the first refresh re-pins (ADR 016). Always
   * written: a column default here would make TypeORM re-read the inserted rows on MySQL and merge
   * them back into the entities out of order (the migration's default covers pre-existing rows).
   */
  @Column({ name: 'fingerprint_version', type: 'int' })
  fingerprintVersion!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: UpstreamToolStatus;

  @Column({ name: 'pending_definition', ...jsonColumn({ nullable: true }) })
  pendingDefinition!: UpstreamToolDefinition | null;

  @Column({ name: 'pending_fingerprint', type: 'varchar', length: 64, nullable: true })
  pendingFingerprint!: string | null;

  @Column({ name: 'reviewed_by', type: 'varchar', length: 64, nullable: true })
  reviewedBy!: string | null;

  @Column({ name: 'reviewed_at', ...dateTime3({ nullable: true }) })
  reviewedAt!: Date | null;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
