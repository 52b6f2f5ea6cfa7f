import { z } from 'zod';

/** A recipient's name: a connector, an imported upstream server or a model provider, as configured. */
const recipientName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'a connector, upstream or model provider name');

/**
 * Legal bases of processing (PIPL 第十三条): consent, a contract with the person, a legal duty,
 * public health or safety, news reporting, information the person made public, other law.
 */
export const PROCESSING_LEGAL_BASES = [
  'consent',
  'contract',
  'legal_obligation',
  'public_health',
  'news_reporting',
  'public_disclosure',
  'other_law',
] as const;

/**
 * What allows personal information out of mainland China (PIPL 第三十八条): the CAC's security
 * assessment, its standard contract, or a certification.
 */
export const CROSS_BORDER_BASES = ['security_assessment', 'standard_contract', 'certification'] as const;

/**
 * `dataProtection:` of a tenant file (PIPL 第38–40, 55–56条, ADR 040): where each recipient
 * processes data, the processing records of the tenant's tools, and the legal basis of each
 * recipient outside mainland China.
 * @example
 * dataProtection:
 *   recipients:
 *     sap: { region: CN }            # or `region: CN` in the connector's own block (ADR 047)
 *     crm_eu: { region: DE, crossBorder: { basis: standard_contract, reference: "SCC 2026-014" } }
 *   records:
 *     - { tool: save_contact, purpose: 客户回访, categories: [contact], recipient: crm_eu, legalBasis: consent }
 */
export const tenantDataProtectionSchema = z.strictObject({
  recipients: z
    .record(
      recipientName,
      z.strictObject({
        /**
         * ISO 3166-1 alpha-2; `CN` is mainland China (Hong Kong `HK`, Macao `MO`, Taiwan `TW` are
         * outside it). Optional since ADR 047: a connector, upstream or model provider declares its
         * own; declared in both places and different, the one outside mainland China counts.
         */
        region: z
          .string()
          .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, CN for mainland China')
          .optional(),
        crossBorder: z
          .strictObject({
            basis: z.enum(CROSS_BORDER_BASES),
            reference: z.string().min(1).max(200).optional(),
          })
          .optional(),
      }),
    )
    .default({}),
  records: z
    .array(
      z.strictObject({
        tool: z.string().min(1).max(128),
        purpose: z.string().min(1).max(500),
        categories: z.array(z.string().min(1).max(64)).min(1).max(32),
        recipient: recipientName,
        legalBasis: z.enum(PROCESSING_LEGAL_BASES),
      }),
    )
    .max(500)
    .default([]),
});

/** A tenant's `dataProtection` section, parsed. */
export type TenantDataProtection = z.infer<typeof tenantDataProtectionSchema>;

/** One processing record of the tenant file. */
export type ProcessingRecord = TenantDataProtection['records'][number];

/** Whether a region is mainland China, where no cross-border rule applies. */
export const isMainlandChina = (region: string | undefined): boolean => region === 'CN';
