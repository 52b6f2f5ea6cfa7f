import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import type { UpstreamCallPlan, UpstreamToolDefinition } from './sources/tool-source.js';

/** The fields of a definition the fingerprint covers, in the order a diff lists them. */
export const FINGERPRINTED_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'callPlan',
] as const;
export type FingerprintedField = (typeof FINGERPRINTED_FIELDS)[number];

/**
 * The fingerprint scheme new pins are taken with, recorded on every imported tool (ADR 016,
 * amendment). 1: name, title, description, schemas and annotations. 2: and the call plan. A
 * definition without a call plan (an MCP tool) has the same fingerprint under both.
 */
export const FINGERPRINT_VERSION = 2;

/** The parts of a call plan a diff names on their own (`callPlan.method`, `callPlan.path`, …). */
const CALL_PLAN_PARTS = ['method', 'baseUrl', 'path', 'parameters', 'body'] as const;

/** Only the fingerprinted fields, absent ones as null, so extra keys an upstream sends do not count. */
export function pinnable(def: UpstreamToolDefinition): UpstreamToolDefinition {
  return {
    name: def.name,
    ...(def.title !== undefined ? { title: def.title } : {}),
    description: def.description,
    inputSchema: def.inputSchema,
    ...(def.outputSchema !== undefined ? { outputSchema: def.outputSchema } : {}),
    ...(def.annotations !== undefined ? { annotations: def.annotations } : {}),
    ...(def.callPlan !== undefined ? { callPlan: def.callPlan } : {}),
  };
}

/**
 * SHA-256 over the canonical JSON of the fingerprinted fields: key order and whitespace do not
 * change it, any change of meaning does. An absent call plan is left out rather than written as
 * null, so definitions without one keep the fingerprints they were pinned with before plans were.
 */
export function fingerprintOf(def: UpstreamToolDefinition): string {
  const fields = FINGERPRINTED_FIELDS.filter((f) => f !== 'callPlan' || def.callPlan !== undefined);
  return sha256Hex(canonicalJson(Object.fromEntries(fields.map((f) => [f, def[f] ?? null]))));
}

/** The fingerprint of what a definition describes, without its call plan (scheme 1). */
export function describedFingerprintOf(def: UpstreamToolDefinition): string {
  return fingerprintOf({ ...def, callPlan: undefined });
}

/**
 * The fingerprinted fields that differ between two definitions; a changed call plan is named by
 * its parts (`callPlan.method`, `callPlan.baseUrl`, `callPlan.path`, `callPlan.parameters`,
 * `callPlan.body`), or `callPlan` when one side has none.
 */
export function changedFields(a: UpstreamToolDefinition, b: UpstreamToolDefinition): string[] {
  const changed: string[] = [];
  for (const f of FINGERPRINTED_FIELDS) {
    if (canonicalJson(a[f] ?? null) === canonicalJson(b[f] ?? null)) continue;
    if (f === 'callPlan' && a.callPlan && b.callPlan)
      changed.push(...changedPlanParts(a.callPlan, b.callPlan));
    else changed.push(f);
  }
  return changed;
}

function changedPlanParts(a: UpstreamCallPlan, b: UpstreamCallPlan): string[] {
  const parts = CALL_PLAN_PARTS.filter((p) => canonicalJson(a[p] ?? null) !== canonicalJson(b[p] ?? null));
  return parts.length ? parts.map((p) => `callPlan.${p}`) : ['callPlan'];
}
