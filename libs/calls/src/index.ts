// Every export is public API of @toolgate/calls: the tool call's record, transitions, reader, view, idempotency.

export { DEFAULT_CALLS_OPTIONS } from './calls.options.js';
export type { CallsOptions } from './calls.options.js';
export { CallsModule } from './calls.module.js';
export type { CallStatus, DecidedBy } from './entities/tool-call.entity.js';
export { ToolCallEntity } from './entities/tool-call.entity.js';
export { IdempotencyService, requestDigest } from './idempotency/idempotency.service.js';
export { CALL_RESULT_REDACTION, CallReaderService } from './records/call-reader.js';
export type { CallResultRedaction } from './records/call-reader.js';
export { CallRecords } from './records/call-records.js';
export { CallRecordsSink } from './records/call-records.sink.js';
export { CallTransitions } from './records/call-transitions.js';
export type { CallRef, NewCallRecord } from './records/call-transitions.js';
export { localeOfCall, toCallView } from './records/call-view.js';
export type { CallView } from './records/call-view.js';
export { newCallRecord } from './records/new-call-record.js';
export { principalOf } from './records/stored-principal.js';
export { CALLS_MIGRATIONS } from './migrations/index.js';
