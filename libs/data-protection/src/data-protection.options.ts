/** Settings of the data-protection lib. */
export interface DataProtectionOptions {
  /**
   * `dengbao3` refuses calls that would send classified fields outside mainland China without a
   * declared legal basis (`DATA_EXPORT_BLOCKED`); off, such calls are only counted.
   */
  readonly profile: 'off' | 'dengbao3';
  /** How often counted calls are added to the shared counters (0: only at shutdown and on reads). */
  readonly flushIntervalMs: number;
}

/** Defaults (the profile is the platform's `compliance.profile`). */
export const DEFAULT_DATA_PROTECTION_OPTIONS: DataProtectionOptions = {
  profile: 'off',
  flushIntervalMs: 5_000,
};

export const DATA_PROTECTION_OPTIONS = Symbol('DATA_PROTECTION_OPTIONS');
