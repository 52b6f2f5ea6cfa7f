import { dateTime3 } from '@toolgate/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The protocols an outside tool source may speak. */
export const UPSTREAM_KINDS = ['mcp', 'openapi'] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

/**
 * An outside tool source a tenant admin registered. The auth header's value is never stored: only
 * the name of the environment variable that holds it, read at connect time.
 */
@Entity('upstream_servers')
export class UpstreamServerEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** snake_case, unique per tenant: the namespace of its tools (`<name>__<tool>`). */
  @Column({ type: 'varchar', length: 32 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: UpstreamKind;

  @Column({ type: 'varchar', length: 2000 })
  url!: string;

  /** OpenAPI sources: where calls go, when not the document's own `servers[0]` (null: the document's). */
  @Column({ name: 'base_url', type: 'varchar', length: 2000, nullable: true })
  baseUrl!: string | null;

  @Column({ name: 'auth_header', type: 'varchar', length: 100, nullable: true })
  authHeader!: string | null;

  @Column({ name: 'auth_env', type: 'varchar', length: 128, nullable: true })
  authEnv!: string | null;

  /**
   * Where the source processes what it is sent (ISO 3166-1 alpha-2, `CN` mainland China; ADR 047):
   * the cross-border guard reads it for every call of its tools. Null: not declared (outside
   * mainland China under the profile: fail closed).
   */
  @Column({ type: 'varchar', length: 2, nullable: true })
  region!: string | null;

  @Column({ name: 'timeout_ms', type: 'int' })
  timeoutMs!: number;

  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...dateTime3() })
  updatedAt!: Date;
}
