import { APPROVAL_MODES, type ApprovalMode, type RiskLevel } from './vocabulary.js';

/** True when `candidate` asks for at least as much approval as `declared` (never < once < always). */
export function isAtLeastAsStrict(candidate: ApprovalMode, declared: ApprovalMode): boolean {
  return APPROVAL_MODES.indexOf(candidate) >= APPROVAL_MODES.indexOf(declared);
}

/**
 * The approval modes a binding may give a tool under the tighten-only rule: the declared one or
 * stricter; an L0 (read-only) tool takes no approval at all.
 */
export function allowedApprovals(riskLevel: RiskLevel, declared: ApprovalMode): ApprovalMode[] {
  if (riskLevel === 'L0') return ['never'];
  return APPROVAL_MODES.filter((mode) => isAtLeastAsStrict(mode, declared));
}
