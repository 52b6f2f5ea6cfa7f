// Public surface of the contract lib: the REST API's shapes (docs/CONTRACT.md) as Zod schemas and
// the types inferred from them, plus the plain vocabulary and pure rules (also at
// `@toolgate/contract/rules`, which the console imports to keep Zod out of its bundle).
export * from './rules/index.js';
export * from './schemas/approvals.schema.js';
export * from './schemas/audit.schema.js';
export * from './schemas/audit-sinks.schema.js';
export * from './schemas/bindings.schema.js';
export * from './schemas/common.schema.js';
export * from './schemas/envelope.schema.js';
export * from './schemas/json-schema.js';
export * from './schemas/keys.schema.js';
export * from './schemas/me.schema.js';
export * from './schemas/policy.schema.js';
export { contractRegistry } from './schemas/registry.js';
export * from './schemas/retention.schema.js';
export * from './schemas/runs.schema.js';
export * from './schemas/stats.schema.js';
export * from './schemas/tenants.schema.js';
export * from './schemas/tools.schema.js';
export * from './schemas/upstreams.schema.js';
