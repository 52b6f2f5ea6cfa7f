import type { z } from 'zod';
import type { TenantFileCeilings } from './tenant-file.ceilings.js';

/** A problem a section finds in a tenant file: its path inside the section, and why. */
export interface SectionProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What a section's checks may look at besides its own value. */
export interface SectionContext {
  /** The file's tenant id (secrets come from the tenant's own namespace of the environment). */
  readonly tenantId: string;
  /** What the platform lets a tenant file ask for at most. */
  readonly ceilings: TenantFileCeilings;
  /** The whole parsed file, for a check that spans sections (ADR 048: a floor against `audit:`). */
  readonly file: Readonly<Record<string, unknown>>;
}

/**
 * One lib's section of a tenant file (`audit:`, `approvals:`, `quotas:`, `notifications:`), kept
 * as the tenant's settings. Each lib exports its schema (and the checks a schema cannot make);
 * the gateway composes the file from them, as it composes `toolgate.yaml` (ADR 012, ADR 031), so
 * this lib knows no other lib's settings. A lib reads its section back with its own schema.
 */
export interface TenantSection<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  /** Checks that need the file's tenant id or the platform's ceilings; run once the file parses. */
  readonly problems?: (value: z.output<S>, context: SectionContext) => readonly SectionProblem[];
}

/** The sections of a tenant file by key, in the order an exported file lists them. */
export type TenantSections = Readonly<Record<string, TenantSection<any>>>;

/** The per-tenant policies a parsed file carries, as stored in the tenant's settings. */
export function settingsOf(file: Readonly<Record<string, unknown>>, sections: TenantSections) {
  return Object.fromEntries(
    Object.keys(sections)
      .map((key) => [key, file[key]] as const)
      .filter(([, v]) => v !== undefined),
  );
}

/** Every section's problems in a parsed file, with paths from the file's root. */
export function sectionProblems(
  file: Readonly<Record<string, unknown>> & { readonly id: string },
  sections: TenantSections,
  ceilings: TenantFileCeilings,
): SectionProblem[] {
  const context: SectionContext = { tenantId: file.id, ceilings, file };
  return Object.entries(sections).flatMap(([key, section]) =>
    file[key] === undefined || !section.problems
      ? []
      : section.problems(file[key], context).map((p) => ({ path: [key, ...p.path], message: p.message })),
  );
}
