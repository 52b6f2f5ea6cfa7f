import type { Callback } from './tool-definition.js';

/** How often a call needs a person's approval. Ordered from loosest to tightest. */
export type ApprovalMode = 'never' | 'once' | 'always';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['never', 'once', 'always'];

/** An approval policy value, as produced by `never()`, `once()` and `always()`. */
export interface ApprovalPolicy {
  readonly mode: ApprovalMode;
}

/** No approval (the default). */
export const never = (): ApprovalPolicy => ({ mode: 'never' });
/** Approval on every call. L3 tools must use this. */
export const always = (): ApprovalPolicy => ({ mode: 'always' });
/** Approval once per session, remembered by tool name or by `approvalKey(input)`. */
export const once = (): ApprovalPolicy => ({ mode: 'once' });

/** The long form: a policy plus the text shown to the approver. */
export interface ApprovalConfig<TInput> {
  readonly request: ApprovalPolicy;
  readonly prompt?: Callback<[args: { input: TInput }], string>;
}

/** True when `candidate` asks for at least as much approval as `declared`. */
export function isAtLeastAsStrict(candidate: ApprovalMode, declared: ApprovalMode): boolean {
  return APPROVAL_MODES.indexOf(candidate) >= APPROVAL_MODES.indexOf(declared);
}
