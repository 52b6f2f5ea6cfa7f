import { AuditTrail, AuditWriter, CheckpointService, draftEvent } from '@toolgate/audit';
import { TransactionRunner } from '@toolgate/database';
import { startTestGateway, testDatabaseKind, type TestGateway } from '@toolgate/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TENANT = 'view-tests';

/**
 * The optimistic append's view of a chain head (ADR 017) after events written inside a caller's
 * transaction: taken in when that transaction commits (no head read before the next append),
 * dropped when it rolls back. Either way the chain verifies. MySQL only: SQLite has one writer and
 * always takes the locked path.
 */
describe.skipIf(testDatabaseKind() !== 'mariadb')('audit chain head view and callers’ transactions', () => {
  let gw: TestGateway;
  let writer: AuditWriter;
  let trail: AuditTrail;
  let transactions: TransactionRunner;
  let headReads = 0;
  let verifiedBefore = 0;

  beforeAll(async () => {
    gw = await startTestGateway({ kind: 'mariadb' });
    writer = gw.app.get(AuditWriter);
    trail = gw.app.get(AuditTrail);
    transactions = gw.app.get(TransactionRunner);
    // Counts the view's unlocked head reads (the locked path reads `… FOR UPDATE` in its transaction).
    const dataSource = gw.app.get(DataSource);
    const query = dataSource.query.bind(dataSource);
    dataSource.query = ((sql: string, ...rest: never[]) => {
      if (sql.includes('FROM audit_chain_heads') && !sql.includes('FOR UPDATE')) headReads++;
      return query(sql, ...rest); // with its query runner: a transaction's statements stay in it
    }) as typeof dataSource.query;
  });
  afterAll(async () => {
    await gw?.close();
  });

  let n = 0;
  const appendOwn = () =>
    writer.append([
      draftEvent({
        tenantId: TENANT,
        event: 'key_created',
        actor: { type: 'system', id: 'test' },
        details: { n: n++ },
        occurredAt: new Date(),
        instanceId: 'test',
      }),
    ]);
  const adminEvent = () => ({
    event: 'key_created' as const,
    tenantId: TENANT,
    actor: { type: 'system' as const, id: 'test' },
    details: { n: n++, inTransaction: true },
  });

  it('takes in the head a committed transaction wrote: the next append reads none', async () => {
    await appendOwn(); // the chain exists and the view knows its head
    await transactions.run((em) => trail.recordIn(em, [adminEvent()]));
    headReads = 0;
    await appendOwn();
    expect(headReads).toBe(0);
    const verification = await gw.app.get(CheckpointService).verify([TENANT], {});
    expect(verification.ok).toBe(true);
    verifiedBefore = verification.checked;
  });

  it('drops the head of a transaction that rolled back: the next append reads it, the chain verifies', async () => {
    await expect(
      transactions.run(async (em) => {
        await trail.recordIn(em, [adminEvent()]);
        throw new Error('the change this event recorded failed');
      }),
    ).rejects.toThrow('failed');
    headReads = 0;
    await appendOwn();
    expect(headReads).toBe(1);
    const verification = await gw.app.get(CheckpointService).verify([TENANT], {});
    expect(verification.ok).toBe(true);
    expect(verification.checked).toBe(verifiedBefore + 1); // the new one, not the rolled-back one
  });
});
