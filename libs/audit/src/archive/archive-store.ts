/**
 * Where the audit trail leaves the gateway: exported checkpoints now, archived ranges of the chain
 * later (issue 23). Keys are `/`-separated paths; a store may be a directory, a mounted share or an
 * object-store bucket, so the port offers only what all of them can do — no append, no rename.
 */
export interface ArchiveStore {
  /** Writes (or replaces) one object. */
  put(key: string, body: string | Buffer): Promise<void>;
  /** One object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The keys directly under a prefix ending in `/`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Where it is, for logs and the startup banner. */
  readonly location: string;
}

/** Injection token of the ArchiveStore the audit lib writes to. */
export const ARCHIVE_STORE = Symbol('ARCHIVE_STORE');
