import { Injectable } from '@nestjs/common';
import { PrincipalStanding } from '@toolgate/auth';
import type { ReadStatement, WriteStatement } from '@toolgate/database';
import { TokenBudget } from '@toolgate/quotas';
import type { ErrorEnvelope } from '@toolgate/toolkit';
import { standingLost, type Drive } from './run-drive.js';

/** What a drive's write carries besides its own rows (ADR 050). */
export interface Carried {
  readonly writes: WriteStatement[];
  readonly reads: ReadStatement[];
}

/** A load for one write: `after` takes the write's read rows (null: the write failed). */
export interface CarriedLoad {
  readonly carried: Carried;
  after(rows: readonly Record<string, unknown>[][] | null): void;
}

/**
 * The checks before a step (ADR 050): the tenant's day of tokens and the principal's standing are
 * read in the round trip of the drive's write just before them (a stored turn before its calls
 * run, a call's outcome before the next turn), and the turn's token count rides in the turn's
 * own transaction. A check with nothing carried for it reads on its own, as before.
 */
@Injectable()
export class StepChecks {
  constructor(
    private readonly tenantTokens: TokenBudget,
    private readonly standing: PrincipalStanding,
  ) {}

  /** The load of the drive's next write: the tenant's held tokens, and the two reads. */
  carry(d: Drive): CarriedLoad {
    const now = new Date();
    const tokens = this.tenantTokens.carry(d.ref.tenantId, now);
    const standing = this.standing.reading(d.run.principal, now);
    const reads = [tokens.read, ...(typeof standing === 'boolean' ? [] : [standing])];
    return {
      carried: { writes: tokens.writes, reads },
      after: (rows) => {
        if (!rows) {
          tokens.returned();
          return;
        }
        d.checked = {
          tokens: rows[0] ?? [],
          standing: typeof standing === 'boolean' ? standing : this.standing.validFrom(rows[1] ?? []),
        };
      },
    };
  }

  /** The tenant's day is spent: BUDGET_EXCEEDED, from what the last write read, else read now. */
  async dayRefusal(d: Drive): Promise<ErrorEnvelope | null> {
    const known = d.checked?.tokens;
    if (d.checked) d.checked = { ...d.checked, tokens: null };
    return known
      ? this.tenantTokens.refusalAfter(d.ref.tenantId, known, d.locale)
      : this.tenantTokens.exceeded(d.ref.tenantId, d.locale);
  }

  /** The principal no longer holds: UNAUTHENTICATED, from what the last write read, else read now. */
  standingLost(d: Drive): Promise<ErrorEnvelope | null> {
    return standingLost(this.standing, d);
  }
}
