// Every export is public API of @toolgate/egress: where requests to tenant-chosen URLs may go, and how much of
// an answer is read (ADR 026).
export { deadlineSignal, readBoundedBody, readTextPrefix } from './bounded-body.js';
export { createEgressFetch } from './egress-fetch.js';
export type { EgressFetch, EgressFetchOptions } from './egress-fetch.js';
export { egressErrorOf } from './egress-error.js';
export { MAX_ANSWER_BYTES, MAX_PEER_ANSWER_BYTES } from './egress-limits.js';
export { EgressModule } from './egress.module.js';
export { DEFAULT_EGRESS_OPTIONS } from './egress.options.js';
export type { EgressOptions } from './egress.options.js';
export { EgressPolicy } from './egress-policy.js';
export { parseRange } from './address-ranges.js';
export { Egress } from './egress.service.js';
export { egressDispatcher } from './egress-fetch.js';
