import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ApiKeyGuard, AUTH_MIGRATIONS, AuthModule } from '@toolgate/auth';
import { APPROVALS_MIGRATIONS, ApprovalsModule } from '@toolgate/approvals';
import {
  AUDIT_APPEND_ONLY_TABLES,
  AUDIT_MIGRATIONS,
  AuditModule,
  auditPurgeExemption,
  SiemModule,
} from '@toolgate/audit';
import { CALLS_MIGRATIONS, CallsModule } from '@toolgate/calls';
import {
  DATABASE_MIGRATIONS,
  DatabaseModule,
  deriveInFlightKey,
  InstancesModule,
  parseDatabaseUrl,
} from '@toolgate/database';
import { EgressModule } from '@toolgate/egress';
import { MCP_TASKS_MIGRATIONS, McpTasksModule } from '@toolgate/mcp';
import { ModelsModule } from '@toolgate/models';
import { NOTIFICATIONS_MIGRATIONS, NotificationsModule } from '@toolgate/notifications';
import { PolicyModule } from '@toolgate/policy';
import { QUOTAS_MIGRATIONS, QuotasModule } from '@toolgate/quotas';
import {
  DATA_PROTECTION_MIGRATIONS,
  DataProtectionModule,
  DEFAULT_DATA_PROTECTION_OPTIONS,
} from '@toolgate/data-protection';
import { RUNS_MIGRATIONS, RunsModule } from '@toolgate/runs';
import { BindingResolver, TENANCY_MIGRATIONS, TenancyModule, TenantRepository } from '@toolgate/tenancy';
import { DemoBackendsModule, ToolPacksModule } from '@toolgate/tool-packs';
import { UPSTREAMS_MIGRATIONS, UpstreamsModule } from '@toolgate/upstreams';
import { ToolkitModule } from '@toolgate/toolkit';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { logDestination } from './telemetry/log-output.js';
import { traceLogMixin } from './telemetry/log-trace-mixin.js';
import { AdminHttpModule } from './admin/admin-http.module.js';
import { AgentsHttpModule } from './agents/agents-http.module.js';
import { McpHttpModule } from './mcp/mcp-http.module.js';
import { NotificationsHttpModule } from './notifications/notifications-http.module.js';
import { ApprovalsHttpModule } from './approvals/approvals-http.module.js';
import { RunsHttpModule } from './runs/runs-http.module.js';
import { AuditHttpModule } from './audit/audit-http.module.js';
import { AuthHttpModule } from './auth/auth-http.module.js';
import { AdminRequestInterceptor } from './http/admin-request.interceptor.js';
import { EnvelopeExceptionFilter } from './http/envelope-exception.filter.js';
import { SchemaValidationPipe } from './http/schema-validation.pipe.js';
import { OpsHttpModule } from './ops/ops-http.module.js';
import { UpstreamsHttpModule } from './upstreams/upstreams-http.module.js';
import { modelProviderRegions } from './settings/model-settings.js';
import type { Settings } from './settings/settings.js';

/** pino-http's options, with a stream of their own when one is given (`[options, stream]`). */
function withDestination<T extends object>(options: T, stream: DestinationStream | undefined) {
  return stream ? ([options, stream] as [T, DestinationStream]) : options;
}

/** Every migration of every lib in use, in timestamp order. */
export const MIGRATIONS = [
  ...DATABASE_MIGRATIONS,
  ...AUTH_MIGRATIONS,
  ...TENANCY_MIGRATIONS,
  ...AUDIT_MIGRATIONS,
  ...CALLS_MIGRATIONS,
  ...APPROVALS_MIGRATIONS,
  ...RUNS_MIGRATIONS,
  ...QUOTAS_MIGRATIONS,
  ...MCP_TASKS_MIGRATIONS,
  ...UPSTREAMS_MIGRATIONS,
  ...NOTIFICATIONS_MIGRATIONS,
  ...DATA_PROTECTION_MIGRATIONS,
];

/**
 * Composes the gateway from the libs, each given its section of the settings with a plain
 * `forRoot` (ADR 012). Declares no business providers: only the global guard, pipe and filter of
 * the HTTP layer.
 */
/** The user name of the purge account (MySQL/MariaDB), which the trail's DELETE guard lets through. */
function purgeAccount(purgeUrl?: string): string | undefined {
  const target = purgeUrl ? parseDatabaseUrl(purgeUrl) : undefined;
  return target?.kind === 'mysql' ? target.username : undefined;
}

@Module({})
export class AppModule {
  /** @param extraImports more modules (tool packs) to load; tests and benchmarks add their own. */
  static forRoot(
    settings: Settings,
    extraImports: NonNullable<DynamicModule['imports']> = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
          // The request logger (pino-http) runs only with the access log on: per-request logging
          // middleware costs measurable throughput (docs/benchmarks.md).
          forRoutes: settings.server.accessLog ? undefined : [],
          pinoHttp: withDestination(
            {
              level: settings.logLevel,
              autoLogging: settings.server.accessLog,
              quietReqLogger: true,
              redact: ['req.headers.authorization', 'req.headers.cookie'],
              // trace_id on every line logged inside a traced request (ADR 019).
              mixin: traceLogMixin,
            },
            logDestination(settings.logFormat),
          ),
        }),
        DatabaseModule.forRoot({
          ...settings.database,
          // Parked calls' inputs and live runs are sealed at rest under it (ADR 036).
          inFlightKey: deriveInFlightKey(settings.audit.fingerprintSecret),
          migrations: MIGRATIONS,
          appendOnly: {
            known: AUDIT_APPEND_ONLY_TABLES,
            guard: settings.compliance.profile === 'dengbao3',
            // Retention's purge: the one DELETE the guard lets through (ADR 037).
            purge: auditPurgeExemption(purgeAccount(settings.database.purgeUrl)),
          },
        }),
        InstancesModule.forRoot(settings.instances),
        AuditModule.forRoot(settings.audit),
        SiemModule.forRoot(settings.siem),
        ToolkitModule.forRoot({ defaultLocale: settings.locale }),
        AuthModule.forRoot(settings.auth),
        // The `approvals` section carries the call records' idempotency settings too (ADR 031).
        CallsModule.forRoot(settings.approvals),
        ApprovalsModule.forRoot(settings.approvals),
        QuotasModule.forRoot(settings.quotas),
        PolicyModule,
        TenancyModule.forRoot(settings.tenancy),
        DataProtectionModule.forRoot({
          ...DEFAULT_DATA_PROTECTION_OPTIONS,
          profile: settings.compliance.profile,
          countsRetentionDays: settings.compliance.processingRecordsDays,
          // Recipients of agent runs' model turns, with the regions they declare (ADR 047).
          modelProviders: modelProviderRegions(settings.models),
          isGlobal: true,
        }),
        EgressModule.forRoot(settings.egress),
        UpstreamsModule.forRoot(settings.upstreams),
        ModelsModule.forRoot(settings.models),
        RunsModule.forRoot(settings.runs),
        McpTasksModule.forRoot({
          approvalExpiryMs: settings.approvals.expiryMs,
          pollIntervalMs: settings.mcp.tasksPollMs,
        }),
        NotificationsModule.forRoot(settings.notifications, {
          // A tenant's `notifications:` section, from its row as cached with its bindings; whether
          // it exists, from the database, as the sibling admin routes ask.
          useFactory: (bindings: BindingResolver, tenants: TenantRepository) => ({
            notificationsOf: async (tenantId: string) =>
              (await bindings.tenant(tenantId))?.settings.notifications,
            tenantExists: async (tenantId: string) => (await tenants.findTenant(tenantId)) !== null,
          }),
          inject: [BindingResolver, TenantRepository],
        }),
        // Every pack of libs/tool-packs: a new pack is one line in its TOOL_PACKS, not here.
        ToolPacksModule,
        ...(settings.tenancy.demo ? [DemoBackendsModule] : []),
        ...extraImports,
        AgentsHttpModule,
        McpHttpModule,
        AdminHttpModule,
        AuditHttpModule,
        ApprovalsHttpModule,
        RunsHttpModule,
        OpsHttpModule.forRoot(settings.ops),
        UpstreamsHttpModule,
        NotificationsHttpModule,
        AuthHttpModule,
      ],
      providers: [
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        // dengbao3: every admin request on the record (ADR 039); nothing otherwise.
        { provide: APP_INTERCEPTOR, useClass: AdminRequestInterceptor },
        { provide: APP_PIPE, useClass: SchemaValidationPipe },
        {
          provide: APP_FILTER,
          useFactory: () => new EnvelopeExceptionFilter(settings.server.bodyLimitBytes),
        },
      ],
    };
  }
}
