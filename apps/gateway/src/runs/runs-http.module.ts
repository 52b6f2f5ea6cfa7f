import { Module } from '@nestjs/common';
import { RunsController } from './runs.controller.js';

/** Agent runs over REST and SSE (the runs lib is global). */
@Module({ controllers: [RunsController] })
export class RunsHttpModule {}
