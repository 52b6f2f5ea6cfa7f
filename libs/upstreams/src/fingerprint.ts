import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import type { UpstreamToolDefinition } from './sources/tool-source.js';

/** The fields of a definition the fingerprint covers, in the order a diff lists them. */
export const FINGERPRINTED_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;
export type FingerprintedField = (typeof FINGERPRINTED_FIELDS)[number];

/** Only the fingerprinted fields, absent ones as null, so extra keys an upstream sends do not count. */
export function pinnable(def: UpstreamToolDefinition): UpstreamToolDefinition {
  return {
    name: def.name,
    ...(def.title !== undefined ? { title: def.title } : {}),
    description: def.description,
    inputSchema: def.inputSchema,
    ...(def.outputSchema !== undefined ? { outputSchema: def.outputSchema } : {}),
    ...(def.annotations !== undefined ? { annotations: def.annotations } : {}),
  };
}

/**
 * SHA-256 over the canonical JSON of the fingerprinted fields: key order and whitespace do not
 * change it, any change of meaning does.
 */
export function fingerprintOf(def: UpstreamToolDefinition): string {
  return sha256Hex(canonicalJson(Object.fromEntries(FINGERPRINTED_FIELDS.map((f) => [f, def[f] ?? null]))));
}

/** The fingerprinted fields that differ between two definitions. */
export function changedFields(a: UpstreamToolDefinition, b: UpstreamToolDefinition): FingerprintedField[] {
  return FINGERPRINTED_FIELDS.filter((f) => canonicalJson(a[f] ?? null) !== canonicalJson(b[f] ?? null));
}
