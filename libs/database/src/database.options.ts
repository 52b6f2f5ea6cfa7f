import type { MixedList } from 'typeorm';
import type { ConnectionTuning } from './database-url.js';

/** What `DatabaseModule.forRoot` needs: where, and the migrations of every lib in use. */
export interface DatabaseOptions extends ConnectionTuning {
  readonly url: string;
  /** Migration classes, collected from each lib's public `*_MIGRATIONS` export. */
  readonly migrations: MixedList<Function>;
  /** Log SQL (development only). */
  readonly logging?: boolean;
}
