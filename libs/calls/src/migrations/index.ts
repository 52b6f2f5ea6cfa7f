import { CreateApprovals1764480300000 } from './1764480300000-create-approvals.js';
import { CallIdentity1764500300000 } from './1764500300000-call-identity.js';
import { CallFace1764700400000 } from './1764700400000-call-face.js';
import { CallTraceparent1764900600000 } from './1764900600000-call-traceparent.js';
import { DecisionPeople1765100100000 } from './1765100100000-decision-people.js';
import { CallInputRedacted1765636000000 } from './1765636000000-call-input-redacted.js';

/**
 * The calls lib's migrations, in order. Written before the call record had a lib of its own, they
 * also create and change the approvals tables (`approvals`, `approval_decisions`,
 * `approval_grants`): a migration is history, so they moved here whole with their class names and
 * timestamps (ADR 031). The approvals lib's next migration starts its own list.
 */
export const CALLS_MIGRATIONS = [
  CreateApprovals1764480300000,
  CallIdentity1764500300000,
  CallFace1764700400000,
  CallTraceparent1764900600000,
  DecisionPeople1765100100000,
  CallInputRedacted1765636000000,
];
