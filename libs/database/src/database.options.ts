import type { MixedList } from 'typeorm';
import type { ConnectionTuning } from './database-url.js';
import type { AppendOnlyTables } from './migration-runner.js';

/** What `DatabaseModule.forRoot` needs: where, and the migrations of every lib in use. */
export interface DatabaseOptions extends ConnectionTuning {
  readonly url: string;
  /** Migration classes, collected from each lib's public `*_MIGRATIONS` export. */
  readonly migrations: MixedList<Function>;
  /**
   * Where migrations run, when not through `url`: an account that may change the schema, so the
   * runtime account (`url`) needs none of that (and only INSERT/SELECT on append-only tables).
   */
  readonly migrationUrl?: string;
  /** Tables kept append-only by triggers (the trail, under a compliance profile). */
  readonly appendOnly?: AppendOnlyTables;
  /**
   * The key in-flight personal data is sealed with at rest (ADR 036; `deriveInFlightKey` of the
   * audit secret). Without one, it is stored as it is.
   */
  readonly inFlightKey?: Buffer;
  /** Log SQL (development only). */
  readonly logging?: boolean;
}
