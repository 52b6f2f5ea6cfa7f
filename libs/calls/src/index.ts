// Public surface of the calls lib: the tool call's record, its transitions, reader and view, idempotency.

export { DEFAULT_CALLS_OPTIONS } from './calls.options.js';
export type { CallsOptions } from './calls.options.js';
export { CallsModule } from './calls.module.js';
export type { CallStatus, DecidedBy, StoredPrincipal } from './entities/tool-call.entity.js';
export { ToolCallEntity } from './entities/tool-call.entity.js';
export { IdempotencyService, requestDigest } from './idempotency/idempotency.service.js';
export type { IdempotentAnswer } from './idempotency/idempotency.service.js';
export { CALL_RESULT_REDACTION, CallReaderService } from './records/call-reader.js';
export type { CallReader, CallResultRedaction } from './records/call-reader.js';
export { CallRecords } from './records/call-records.js';
export { CallRecordsSink } from './records/call-records.sink.js';
export type { CallRecordWrites } from './records/call-records.sink.js';
export { CallTransitions } from './records/call-transitions.js';
export type { CallRef, NewCallRecord } from './records/call-transitions.js';
export { localeOfCall, toCallView } from './records/call-view.js';
export type { CallView } from './records/call-view.js';
export { newCallRecord } from './records/new-call-record.js';
export type { ParkedCall } from './records/new-call-record.js';
export { principalOf } from './records/stored-principal.js';
export { CALLS_MIGRATIONS } from './migrations/index.js';
