// Public surface of the egress lib: where requests to tenant-chosen URLs may go, and how much of
// an answer is read (ADR 026).
export { deadlineSignal, limitBody, readBoundedBody, readTextPrefix } from './bounded-body.js';
export type { BoundedBody } from './bounded-body.js';
export { createEgressFetch, egressDispatcher } from './egress-fetch.js';
export type { EgressFetch, EgressFetchOptions } from './egress-fetch.js';
export { EgressError, egressErrorOf } from './egress-error.js';
export type { EgressFailure } from './egress-error.js';
export { MAX_ANSWER_BYTES, MAX_PEER_ANSWER_BYTES } from './egress-limits.js';
export { EgressModule } from './egress.module.js';
export { DEFAULT_EGRESS_OPTIONS, EGRESS_OPTIONS } from './egress.options.js';
export type { EgressOptions, HostResolver, ResolvedAddress } from './egress.options.js';
export { EgressPolicy, systemResolver } from './egress-policy.js';
export type { EgressDecision } from './egress-policy.js';
export { parseRange } from './address-ranges.js';
export { Egress } from './egress.service.js';
