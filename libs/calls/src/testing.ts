// What specs outside the calls lib build on (`@toolgate/calls/testing`); production code imports
// `@toolgate/calls` only.
export { callsDatabase } from './testing/calls-database.js';
export type { CallsDatabase } from './testing/calls-database.js';
