import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CALLS_OPTIONS, type CallsOptions } from './calls.options.js';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity.js';
import { ToolCallEntity } from './entities/tool-call.entity.js';
import { IdempotencyRepository } from './idempotency/idempotency.repository.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { CallReaderService } from './records/call-reader.js';
import { CallRecords } from './records/call-records.js';
import { CallRecordsSink } from './records/call-records.sink.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<CallsOptions>({
  optionsInjectionToken: CALLS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/**
 * The tool call's record: `tool_calls` and its transitions, the reader, idempotency, and the sink
 * the audit trail writes records through. `CallsModule.forRoot(options)` (or `forRootAsync`).
 * Its reader needs the audit lib's `CALL_RESULT_REDACTION` (the `AuditModule` provides it).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ToolCallEntity, IdempotencyRecordEntity])],
  providers: [CallRecords, CallReaderService, CallRecordsSink, IdempotencyRepository, IdempotencyService],
  exports: [CallRecords, CallReaderService, CallRecordsSink, IdempotencyService],
})
export class CallsModule extends ConfigurableModuleClass {}
