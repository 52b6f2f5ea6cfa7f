import { dateTime3, jsonColumn } from '@toolgate/database';
import { Exclude, Expose, instanceToPlain, Transform } from 'class-transformer';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ApiKeyView } from '@toolgate/contract';
import type { Role } from './roles.js';

/** A date column as the API shows it (ISO 8601), null kept null. */
const iso = () =>
  Transform(({ value }: { value: Date | null }) => (value ? value.toISOString() : null), {
    toPlainOnly: true,
  });

/**
 * An API key. Only a hash of the secret is stored; the secret is shown once, at creation.
 *
 * Serialized with class-transformer: the class excludes every field and each field the API shows
 * says so with `@Expose()` (a new column stays hidden until someone decides to show it). The hash
 * is never shown: `toApiKeyView`, and `toJSON` should a row itself ever reach an answer, both go
 * through `instanceToPlain`.
 */
@Exclude()
@Entity('api_keys')
export class ApiKeyEntity {
  @Expose()
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Expose()
  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Expose()
  @Column({ type: 'varchar', length: 32 })
  role!: Role;

  @Expose()
  @Index('idx_api_keys_tenant')
  @Column({ name: 'tenant_id', type: 'varchar', length: 64, nullable: true })
  tenantId!: string | null;

  @Expose()
  @Column({ name: 'agent_types', ...jsonColumn({ nullable: true }) })
  agentTypes!: string[] | null;

  /** SHA-256 of the secret; never serialized (not exposed, and excluded by name as well). */
  @Exclude()
  @Index('uq_api_keys_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  /** The first characters of the secret, so people can tell their keys apart. */
  @Expose({ name: 'prefix' })
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix!: string;

  /**
   * The person who answers for the key (`<provider>:<subject>`, e.g. `oidc:8f2c…`): that person may
   * not approve what the key asks (separation of duties compares people). Null: nobody recorded.
   */
  @Expose()
  @Column({ type: 'varchar', length: 300, nullable: true })
  owner!: string | null;

  @Expose()
  @Column({ name: 'created_by', type: 'varchar', length: 64 })
  createdBy!: string;

  @Expose()
  @iso()
  @Column({ name: 'created_at', ...dateTime3() })
  createdAt!: Date;

  @Expose()
  @iso()
  @Column({ name: 'revoked_at', ...dateTime3({ nullable: true }) })
  revokedAt!: Date | null;

  /** Marks keys made at boot when no TOOLGATE_ADMIN_KEY is set; each boot replaces the last one. */
  @Column({ type: 'boolean', default: false })
  bootstrap!: boolean;

  /** What JSON.stringify (and so any reply) makes of a row: the view, never the hash. */
  toJSON(): ApiKeyView {
    return toApiKeyView(this);
  }
}

/**
 * A key as the API shows it (`ApiKeyView`): the exposed fields of the row, dates as ISO strings.
 * Takes a copy of a row too (`{ ...row }` is no `ApiKeyEntity`, and only an instance carries the
 * exposure rules): it is made one first, so nothing but the exposed fields can pass.
 */
export function toApiKeyView(key: Omit<ApiKeyEntity, 'toJSON'>): ApiKeyView {
  const instance = key instanceof ApiKeyEntity ? key : Object.assign(new ApiKeyEntity(), key);
  return instanceToPlain(instance) as ApiKeyView;
}
