import 'reflect-metadata';
import { AdminKeyBootstrap } from '@toolgate/auth';
import { startupBanner } from './banner.js';
import { createGateway } from './bootstrap.js';
import { loadSettings, SettingsError } from './settings/settings.js';
import { writeAfterLogs } from './telemetry/log-output.js';
import { startTracingFromEnv } from './telemetry/tracing.js';

async function main(): Promise<void> {
  const settings = loadSettings();
  // Before the gateway is built: only when OTEL_EXPORTER_OTLP_ENDPOINT is set (ADR 019).
  const tracing = startTracingFromEnv();
  const app = await createGateway(settings);
  // Batched spans are flushed when the gateway closes (SIGTERM, SIGINT).
  if (tracing)
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onClose', () => tracing.shutdown());
  await app.listen({ port: settings.server.port, host: settings.server.host });
  const base = (await app.getUrl()).replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  // Last: after every start-up log line.
  writeAfterLogs(startupBanner(base, settings, app.get(AdminKeyBootstrap).origin), settings.logFormat);
}

main().catch((err: unknown) => {
  const message =
    err instanceof SettingsError ||
    (err as Error)?.name?.endsWith('ConfigError') ||
    (err as Error)?.name === 'ToolDefinitionError'
      ? (err as Error).message
      : ((err as Error)?.stack ?? String(err));
  process.stderr.write(`Toolgate failed to start:\n${message}\n`);
  process.exit(1);
});
