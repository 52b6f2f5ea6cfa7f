import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Checkpoints record how they were signed (ADR 040): `sm2-sm3` for an SM2 signature over an SM3
 * public digest. Older rows keep null, which is Ed25519 over SHA-256 — what they were signed with.
 */
export class CheckpointAlgorithm1765640400000 implements MigrationInterface {
  name = 'CheckpointAlgorithm1765640400000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn(
      'audit_checkpoints',
      new TableColumn({ name: 'algorithm', type: 'varchar', length: '16', isNullable: true }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('audit_checkpoints', 'algorithm');
  }
}
