import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository.js';

/**
 * Who owns each key: the one thing separation of duties asks of the keys (an approver may not
 * decide a call their own key asked for). A narrow port, so the approvals lib depends on this
 * question and not on the key service.
 */
@Injectable()
export class KeyOwners {
  constructor(private readonly keys: ApiKeyRepository) {}

  /**
   * The person who owns each of `principalIds` that is a key with a recorded owner; a person's own
   * principal id (`user`) stands for itself and is not in the map.
   */
  personsOf(principalIds: readonly string[]): Promise<Map<string, string>> {
    return this.keys.ownersOf(principalIds.filter((id) => id.startsWith('key_')));
  }

  /**
   * `personsOf` as a statement, to go in one packet with a caller's other reads: each of `ids` is
   * SQL yielding one principal id (`?`, or a scalar subquery of the caller's own table). Its rows
   * go to `personsFrom`.
   */
  personsRead(ids: readonly { readonly sql: string; readonly params: readonly unknown[] }[]): {
    sql: string;
    params: unknown[];
  } {
    return {
      sql: `SELECT id, owner FROM api_keys WHERE owner IS NOT NULL AND id IN (${ids.map((i) => i.sql).join(', ')})`,
      params: ids.flatMap((i) => [...i.params]),
    };
  }

  /** The owners a `personsRead` answered, as `personsOf` answers them. */
  personsFrom(rows: readonly Record<string, unknown>[]): Map<string, string> {
    return new Map(rows.map((r) => [String(r.id), String(r.owner)]));
  }
}
