import 'reflect-metadata';
import { ApiKeyService } from '@toolgate/auth';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { startTracingFromEnv } from '../../../apps/gateway/src/telemetry/tracing.js';
import { BenchToolsModule } from './bench-tools.js';
import { BenchWideToolsModule } from './mcp-bench-tools.js';

/**
 * A gateway for the benchmark, started as its own process (so it can be pinned to one core).
 * Prints one JSON line `{ port, agentKey }` once it serves.
 */
async function main(): Promise<void> {
  const settings = loadSettings({
    ...process.env,
    PORT: process.env.PORT ?? '0',
    TOOLGATE_LOG_LEVEL: 'warn',
  });
  // The MCP section's 500-tool agent type (its tenant file is in the config dir only then).
  const wide = process.env.BENCH_WIDE_TOOLS === 'on' ? [BenchWideToolsModule] : [];
  // As main.ts does: only with OTEL_EXPORTER_OTLP_ENDPOINT set (the tracing section).
  const tracing = startTracingFromEnv();
  const app = await createGateway(settings, { imports: [BenchToolsModule, ...wide], quiet: true });
  await app.listen({ port: settings.server.port, host: '127.0.0.1' });
  const keys = app.get(ApiKeyService);
  const key = await keys.create(null, { name: 'bench agent', role: 'agent', tenantId: 'bench' });
  const approver = await keys.create(null, { name: 'bench approver', role: 'approver', tenantId: 'bench' });
  // The same agent type in a tenant whose L0 calls are not recorded (the audit section compares).
  const quiet = await keys.create(null, { name: 'bench quiet agent', role: 'agent', tenantId: 'benchquiet' });
  const wideKey = wide.length
    ? (await keys.create(null, { name: 'bench wide agent', role: 'agent', tenantId: 'benchwide' })).key
    : undefined;
  const port = Number(new URL(await app.getUrl()).port);
  process.stdout.write(
    `${JSON.stringify({ port, agentKey: key.key, approverKey: approver.key, wideKey, quietKey: quiet.key })}\n`,
  );
  const stop = async () => {
    await app.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`bench server failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
