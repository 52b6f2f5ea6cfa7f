/** A model provider as the cross-border guard sees it (ADR 047). */
export interface ModelProviderRegion {
  /** ISO 3166-1 alpha-2 as declared (`models.providers.<name>.region`); null when not declared. */
  readonly region: string | null;
  /** Runs in the gateway's own process (the demo planner): nothing is sent anywhere. */
  readonly inProcess?: boolean;
}

/** Settings of the data-protection lib. */
export interface DataProtectionOptions {
  /**
   * `dengbao3` refuses calls that would send classified fields outside mainland China without a
   * declared legal basis (`DATA_EXPORT_BLOCKED`); off, such calls are only counted.
   */
  readonly profile: 'off' | 'dengbao3';
  /** How often counted calls are added to the shared counters (0: only at shutdown and on reads). */
  readonly flushIntervalMs: number;
  /** The configured model providers by name, with their regions: recipients of agent runs' model turns. */
  readonly modelProviders: Readonly<Record<string, ModelProviderRegion>>;
  /**
   * Days a processing counter is kept after the last call it counted (PIPL 第55–56条: ≥ 3 years;
   * the settings refuse less under the profile). The trail's retention never touches them (ADR 047).
   */
  readonly countsRetentionDays: number;
  /** How often counters past their retention are removed (0: never). */
  readonly countsPruneIntervalMs: number;
}

/** Three years, PIPL 第五十六条's floor for processing records (with the profile, the least allowed). */
export const PROCESSING_RECORDS_FLOOR_DAYS = 1095;

/** Defaults (the profile is the platform's `compliance.profile`). */
export const DEFAULT_DATA_PROTECTION_OPTIONS: DataProtectionOptions = {
  profile: 'off',
  flushIntervalMs: 5_000,
  modelProviders: {},
  countsRetentionDays: PROCESSING_RECORDS_FLOOR_DAYS,
  countsPruneIntervalMs: 6 * 60 * 60 * 1000,
};

export const DATA_PROTECTION_OPTIONS = Symbol('DATA_PROTECTION_OPTIONS');
