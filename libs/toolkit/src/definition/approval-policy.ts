import type { ApprovalMode } from '@toolgate/contract/rules';
import type { Callback } from './tool-definition.js';

// The modes, their order (never < once < always) and the tighten-only rule are the REST
// contract's vocabulary: one definition for the toolkit, the gateway and the console.
export { APPROVAL_MODES, isAtLeastAsStrict, type ApprovalMode } from '@toolgate/contract/rules';

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
