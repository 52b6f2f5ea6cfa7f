import { Module } from '@nestjs/common';
import { UpstreamsController } from './upstreams.controller.js';

/** The admin audience of outside tool sources. */
@Module({ controllers: [UpstreamsController] })
export class UpstreamsHttpModule {}
