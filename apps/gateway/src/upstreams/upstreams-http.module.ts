import { Module } from '@nestjs/common';
import { UpstreamRegionsBridge } from './upstream-regions.bridge.js';
import { UpstreamsController } from './upstreams.controller.js';

/** The admin audience of outside tool sources, and their regions for the cross-border guard. */
@Module({ controllers: [UpstreamsController], providers: [UpstreamRegionsBridge] })
export class UpstreamsHttpModule {}
