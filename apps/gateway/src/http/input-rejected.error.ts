import {
  ErrorCode,
  invalidInputEnvelope,
  ToolgateError,
  type ErrorEnvelope,
  type InputIssue,
  type Locale,
} from '@toolgate/toolkit';

/** A request that does not match its schema; rendered in the caller's language by the filter. */
export class InputRejectedError extends ToolgateError {
  constructor(readonly issues: readonly InputIssue[]) {
    super(ErrorCode.INVALID_INPUT);
  }

  override toEnvelope(locale: Locale): ErrorEnvelope {
    return invalidInputEnvelope(this.issues, locale);
  }
}
