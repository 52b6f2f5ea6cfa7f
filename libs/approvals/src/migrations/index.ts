import { CreateApprovals1764480300000 } from './1764480300000-create-approvals.js';
import { CallIdentity1764500300000 } from './1764500300000-call-identity.js';
import { CallFace1764700400000 } from './1764700400000-call-face.js';
import { CallTraceparent1764900600000 } from './1764900600000-call-traceparent.js';
import { DecisionPeople1765100100000 } from './1765100100000-decision-people.js';

/** The approvals lib's migrations, in order. */
export const APPROVALS_MIGRATIONS = [
  CreateApprovals1764480300000,
  CallIdentity1764500300000,
  CallFace1764700400000,
  CallTraceparent1764900600000,
  DecisionPeople1765100100000,
];
