import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataExportHook } from './data-export.hook.js';
import { DATA_PROTECTION_OPTIONS, type DataProtectionOptions } from './data-protection.options.js';
import { ProcessingCountEntity } from './entities/processing-count.entity.js';
import { ProcessingCounts } from './processing-counts.js';
import { ProcessingRecords } from './processing-records.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<DataProtectionOptions>({
  optionsInjectionToken: DATA_PROTECTION_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();

/**
 * PIPL data protection (ADR 040): the cross-border guard on every call, the processing counters,
 * and the processing records of the admin API. `DataProtectionModule.forRoot(options)`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ProcessingCountEntity])],
  providers: [DataExportHook, ProcessingCounts, ProcessingRecords],
  exports: [ProcessingRecords],
})
export class DataProtectionModule extends ConfigurableModuleClass {}
