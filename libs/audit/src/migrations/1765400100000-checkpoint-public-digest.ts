import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Checkpoints sign a public digest of the events they cover (ADR 030), so that someone with the
 * public key and exported events — and no chain key — can check them. Older rows keep nulls: they
 * were signed over the head only.
 */
export class CheckpointPublicDigest1765400100000 implements MigrationInterface {
  name = 'CheckpointPublicDigest1765400100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumns('audit_checkpoints', [
      new TableColumn({ name: 'from_seq', type: 'bigint', isNullable: true }),
      new TableColumn({ name: 'from_hash', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'public_digest', type: 'varchar', length: '64', isNullable: true }),
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const c of ['public_digest', 'from_hash', 'from_seq'])
      await runner.dropColumn('audit_checkpoints', c);
  }
}
