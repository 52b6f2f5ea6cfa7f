import { z } from 'zod';

/**
 * The parts of the `dengbao3` profile a tenant file may turn on for its own tenant (ADR 048):
 * - `crossBorderGuard`: classified fields to a recipient outside mainland China without a legal
 *   basis refuse the call, and the agent run's model turn, with `DATA_EXPORT_BLOCKED`;
 * - `retentionFloor`: the tenant's trail is kept at least 180 days (网络安全法 第二十一条);
 * - `processingRecordsFloor`: its processing counts are kept at least 3 years after their last
 *   call (PIPL 第五十六条).
 */
export const TENANT_COMPLIANCE_PARTS = [
  'crossBorderGuard',
  'retentionFloor',
  'processingRecordsFloor',
] as const;
export type CompliancePart = (typeof TENANT_COMPLIANCE_PARTS)[number];

/**
 * Parts of the profile that are the platform's alone: a tenant file naming one is refused. Each
 * guards something every tenant shares (the administrators, the database, the chain's suite).
 */
export const PLATFORM_ONLY_COMPLIANCE_PARTS = {
  separatedDuties:
    'the system, security and audit administrators (三员分立) are platform roles over every tenant',
  appendOnly: "the triggers that keep the trail append-only guard the platform's shared tables",
  cryptoSuite: 'the chain and checkpoints use one suite per platform (audit.cryptoSuite: sm for SM2/SM3)',
  adminRequests: "every request to an admin route is recorded for the platform's administrators",
} as const;

/** Which parts of the profile apply to a tenant: the platform's, with the tenant file's additions. */
export type EffectiveCompliance = Readonly<Record<CompliancePart, boolean>>;

const part = (what: string) =>
  z.boolean().optional().describe(`${what}; true adds it for this tenant, false is refused when it is on`);

/**
 * `compliance:` of a tenant file (ADR 048): tighten-only additions to the platform's
 * `compliance.profile`. `profile: dengbao3` adds every per-tenant part; a part by name adds that
 * one. Nothing here turns off what the platform (or this file) turned on: that is refused at save.
 * @example
 * compliance:
 *   crossBorderGuard: true     # or `profile: dengbao3` for every part a tenant may have
 */
export const tenantComplianceSchema = z
  .strictObject({
    profile: z
      .enum(['off', 'dengbao3'])
      .optional()
      .describe("dengbao3 adds every per-tenant part; off is refused when the platform's profile is on"),
    crossBorderGuard: part('DATA_EXPORT_BLOCKED on calls and model turns without a cross-border basis'),
    retentionFloor: part('the trail kept at least 180 days'),
    processingRecordsFloor: part('processing counts kept at least 3 years after their last call'),
    // Named only to be refused with the reason (a strict object would just say "unrecognized").
    ...Object.fromEntries(
      Object.keys(PLATFORM_ONLY_COMPLIANCE_PARTS).map((k) => [k, z.unknown().optional()]),
    ),
  })
  .superRefine((value, ctx) => {
    for (const [key, reason] of Object.entries(PLATFORM_ONLY_COMPLIANCE_PARTS))
      if (key in value)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} is platform-wide and cannot be set per tenant (${reason}): set compliance.profile in toolgate.yaml`,
        });
  });

/** A tenant file's `compliance` section, parsed. */
export type TenantCompliance = z.infer<typeof tenantComplianceSchema>;

export type ComplianceProfile = 'off' | 'dengbao3';

/** The parts that apply to a tenant: every one under the platform's profile, else the file's. */
export function effectiveCompliance(
  platform: ComplianceProfile,
  tenant: Partial<Record<string, unknown>> | undefined,
): EffectiveCompliance {
  const all = platform === 'dengbao3' || tenant?.profile === 'dengbao3';
  return {
    crossBorderGuard: all || tenant?.crossBorderGuard === true,
    retentionFloor: all || tenant?.retentionFloor === true,
    processingRecordsFloor: all || tenant?.processingRecordsFloor === true,
  };
}

/** What the profile's floors are, in days (the platform's constants, passed in by the gateway). */
export interface ComplianceFloors {
  readonly retentionDays: number;
  readonly processingRecordsDays: number;
}

/**
 * The `compliance:` section of a tenant file with the checks that need the platform's profile: a
 * part the platform (or the file's own `profile: dengbao3`) turns on may not be turned off, and a
 * tenant that adds `retentionFloor` may not keep its trail fewer days in the same file.
 */
export function tenantComplianceSection(platform: ComplianceProfile, floors: ComplianceFloors) {
  const key = `${platform}/${floors.retentionDays}`;
  let section = sections.get(key);
  if (!section) sections.set(key, (section = buildSection(platform, floors)));
  return section;
}

const sections = new Map<string, ReturnType<typeof buildSection>>();

function buildSection(platform: ComplianceProfile, floors: ComplianceFloors) {
  return {
    schema: tenantComplianceSchema,
    problems: (c: TenantCompliance, context: { readonly file?: Readonly<Record<string, unknown>> }) => {
      const problems: { path: (string | number)[]; message: string }[] = [];
      if (platform === 'dengbao3' && c.profile === 'off')
        problems.push({
          path: ['profile'],
          message:
            "the platform's compliance.profile is dengbao3: a tenant file may add to it, never turn it off",
        });
      for (const p of TENANT_COMPLIANCE_PARTS) {
        if (c[p] !== false) continue;
        if (platform === 'dengbao3')
          problems.push({
            path: [p],
            message: `the platform's dengbao3 profile turns ${p} on for every tenant: a tenant file may only add parts, never turn one off`,
          });
        else if (c.profile === 'dengbao3')
          problems.push({
            path: [p],
            message: `profile: dengbao3 in this file turns ${p} on: leave ${p} out or name the parts one by one`,
          });
      }
      // Under the platform's profile the audit section's own floor check says it already.
      const retentionDays = (context.file?.audit as { retentionDays?: unknown } | undefined)?.retentionDays;
      if (
        platform === 'off' &&
        effectiveCompliance(platform, c).retentionFloor &&
        typeof retentionDays === 'number' &&
        retentionDays < floors.retentionDays
      )
        problems.push({
          path: ['retentionFloor'],
          message: `keeps this tenant's trail at least ${floors.retentionDays} days (网络安全法 第二十一条): audit.retentionDays ${retentionDays} is below it`,
        });
      return problems;
    },
  };
}
