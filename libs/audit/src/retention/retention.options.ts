/** The platform's retention settings (`audit.retention` of `config/toolgate.yaml`, ADR 037). */
export interface RetentionOptions {
  /** A tenant that sets nothing keeps its trail this many days in the database. */
  readonly defaultDays: number;
  /** The platform's floor: no tenant keeps its trail fewer days (the 等保 profile raises it to 180). */
  readonly minimumDays: number;
  /** How often closed ranges are archived and then purged (0: never; `POST /v1/admin/retention/run` still runs it). */
  readonly archiveIntervalMs: number;
  /**
   * Archive only UTC days that are over (one file per tenant and day). Off, the day so far is
   * archived too, up to its newest checkpoint (several files a day): a shorter window of loss.
   */
  readonly wholeDays: boolean;
  /** Events deleted per purge transaction. */
  readonly purgeBatch: number;
  /** The least pause between two purge transactions. */
  readonly purgePauseMs: number;
  /**
   * The share of the wall clock archiving and purging may work (0–1]: after each step (a page of
   * events read and written, a purge transaction) they rest in proportion, so the calls served
   * beside them keep their latency (issue 23: L1 p99 rising ≤ 20 % while a day is archived).
   */
  readonly workShare: number;
}

/** The defaults (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_RETENTION_OPTIONS: RetentionOptions = {
  defaultDays: 180,
  minimumDays: 180,
  archiveIntervalMs: 3_600_000,
  wholeDays: true,
  purgeBatch: 100,
  purgePauseMs: 5,
  workShare: 0.1,
};

/** 网络安全法 第二十一条: network logs kept at least six months; the 等保 profile's floor. */
export const COMPLIANCE_RETENTION_FLOOR_DAYS = 180;

/** What the gateway derives from the settings and the environment besides the file's values. */
export interface RetentionRuntime extends RetentionOptions {
  /** The effective floor: `minimumDays`, raised to 180 under the 等保 profile. */
  readonly floorDays: number;
  /**
   * The trail is append-only in the database (the profile's triggers): on MySQL/MariaDB the purge
   * then needs its own account (`purgeUrl`), the only one the DELETE guard lets through.
   */
  readonly appendOnly: boolean;
  /** `DATABASE_PURGE_URL`: the purge job's own connection (MySQL/MariaDB). */
  readonly purgeUrl?: string;
}

/** An S3-compatible bucket as the archive store (`audit.archiveStore`). */
export interface S3ArchiveOptions {
  /** `https://oss.example.com` or `http://127.0.0.1:9000`: the platform's endpoint, never a tenant's. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  /** Keys go under this prefix (the deployment's name is appended, as for a directory). */
  readonly prefix: string;
  readonly accessKey: string;
  readonly secretKey: string;
  /** `bucket` in the path (`endpoint/bucket/key`), as MinIO and most private stores want. */
  readonly pathStyle: boolean;
}
