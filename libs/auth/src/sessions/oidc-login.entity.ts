import { dateTime3 } from '@toolgate/database';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A sign-in under way: what the callback must check (state, nonce) and prove (the PKCE verifier).
 * Kept server-side so the verifier never reaches the browser; taken (deleted) by its callback, so a
 * replayed callback finds nothing.
 */
@Entity('oidc_logins')
export class OidcLoginEntity {
  /** SHA-256 of the `state` parameter. */
  @PrimaryColumn({ name: 'state_hash', type: 'varchar', length: 64 })
  stateHash!: string;

  @Column({ name: 'code_verifier', type: 'varchar', length: 128 })
  codeVerifier!: string;

  @Column({ type: 'varchar', length: 128 })
  nonce!: string;

  @Index('idx_oidc_logins_expires')
  @Column({ name: 'expires_at', ...dateTime3() })
  expiresAt!: Date;
}
