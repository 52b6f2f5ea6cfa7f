import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from '@toolgate/agents';
import { ModelProviders } from '@toolgate/models';
import { AgentRunEntity } from './entities/agent-run.entity.js';
import { RunEventEntity } from './entities/run-event.entity.js';
import { RunStepEntity } from './entities/run-step.entity.js';
import { RunToolCallEntity } from './entities/run-tool-call.entity.js';
import { RunEvents } from './events/run-events.js';
import { RunDriver } from './loop/run-driver.js';
import { RunDrives } from './loop/run-drives.js';
import { RunOpener } from './loop/run-opener.js';
import { RunCalls } from './loop/run-calls.js';
import { RunEndings } from './loop/run-endings.js';
import { RunLoop } from './loop/run-loop.js';
import { RUN_MODEL_SOURCE } from './loop/run-models.js';
import { RunResumer } from './loop/run-resumer.js';
import { RunTurns } from './loop/run-turns.js';
import { StepCalls } from './loop/step-calls.js';
import { StepChecks } from './loop/step-checks.js';
import { SubAgents } from './loop/sub-agents.js';
import { RunAdmission } from './run-admission.js';
import { RunService } from './run.service.js';
import { DEFAULT_RUNS_OPTIONS, RUNS_OPTIONS, type RunsOptions } from './runs.options.js';
import { RunStatsRepository } from './store/run-stats.repository.js';
import { RunRepository } from './store/run.repository.js';
import { RunScrubber } from './views/run-scrubber.js';
import { RunReaders } from './views/run-readers.js';

/**
 * Agent runs: the loop, its storage, leases, resumption and events. Global: the gateway's runs
 * controller and admin stats use its services without importing it.
 * Models come from `ModelProviders` (ModelsModule, global) unless `models` provides `RUN_MODEL_SOURCE`.
 */
@Global()
@Module({})
export class RunsModule {
  static forRoot(options: Partial<RunsOptions> = {}, models?: Provider): DynamicModule {
    return {
      module: RunsModule,
      imports: [
        TypeOrmModule.forFeature([AgentRunEntity, RunStepEntity, RunToolCallEntity, RunEventEntity]),
        AgentsModule,
      ],
      providers: [
        { provide: RUNS_OPTIONS, useValue: { ...DEFAULT_RUNS_OPTIONS, ...options } },
        models ?? { provide: RUN_MODEL_SOURCE, useExisting: ModelProviders },
        RunRepository,
        RunStatsRepository,
        RunEvents,
        RunOpener,
        SubAgents,
        RunEndings,
        RunCalls,
        RunTurns,
        StepCalls,
        StepChecks,
        RunLoop,
        RunDriver,
        { provide: RunDrives, useExisting: RunDriver },
        RunResumer,
        RunReaders,
        RunScrubber,
        RunAdmission,
        RunService,
      ],
      exports: [RunService, RunEvents, RunResumer, RunStatsRepository],
    };
  }
}
