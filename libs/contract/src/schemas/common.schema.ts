import { z } from 'zod';
import { APPROVAL_MODES, LOCALES, RISK_LEVELS, ROLES } from '../rules/vocabulary.js';
import { named } from './registry.js';

export const roleSchema = named('Role', z.enum(ROLES));
export const riskLevelSchema = named('RiskLevel', z.enum(RISK_LEVELS));
export const approvalModeSchema = named(
  'ApprovalMode',
  z.enum(APPROVAL_MODES),
  'never < once < always; a binding may only tighten',
);
export const localeSchema = z.enum(LOCALES);

/** An instant as ISO-8601 UTC text. */
export const instant = () => z.iso.datetime();

/** A tenant id: lower-case letters and digits with single `-` or `_` between them, at most 64. */
export const TENANT_ID = z
  .string()
  .max(64)
  .regex(
    /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/,
    'use lower-case letters and digits, with single - or _ between them (at most 64)',
  );

/** An agent type: snake_case. */
/** A region where data is processed: ISO 3166-1 alpha-2, `CN` for mainland China (ADR 047). */
export const REGION = z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, CN for mainland China');

export const AGENT_TYPE = z.string().regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, 'use snake_case');

/** One problem of a request body: `details.issues[]` of an INVALID_INPUT answer. */
export const issueSchema = named(
  'Issue',
  z.object({
    path: z.string(),
    message: z.string(),
  }),
);
export type Issue = z.infer<typeof issueSchema>;
