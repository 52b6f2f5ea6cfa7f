import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataExportHook } from './data-export.hook.js';
import { DataProtectionSections } from './data-protection-sections.js';
import { DATA_PROTECTION_OPTIONS, type DataProtectionOptions } from './data-protection.options.js';
import { ProcessingCountEntity } from './entities/processing-count.entity.js';
import { ProcessingCounts } from './processing-counts.js';
import { ModelTurnGuard } from './model-turn-guard.js';
import { ProcessingRecords } from './processing-records.js';
import { RecipientRegions } from './recipient-regions.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<DataProtectionOptions>({
  optionsInjectionToken: DATA_PROTECTION_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();

/**
 * PIPL data protection (ADR 040, 047): the cross-border guard on every call and on agent runs'
 * model turns, the recipients' regions read from their own records, the processing counters (kept
 * apart from the trail, 3 years), and the processing records of the admin API. `DataProtectionModule.forRoot(options)`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ProcessingCountEntity])],
  providers: [
    DataExportHook,
    DataProtectionSections,
    ModelTurnGuard,
    ProcessingCounts,
    ProcessingRecords,
    RecipientRegions,
  ],
  exports: [ModelTurnGuard, ProcessingCounts, ProcessingRecords, RecipientRegions],
})
export class DataProtectionModule extends ConfigurableModuleClass {}
