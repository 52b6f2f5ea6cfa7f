import 'reflect-metadata';
import { createGateway } from '../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../apps/gateway/src/settings/settings.js';
import { LedgerToolsModule } from './ledger-tools.js';

/**
 * The gateway as apps/gateway/src/main.ts starts it, plus the test tools of test/support (the
 * ledger tools), for suites that run gateways as their own OS processes: `startGatewayProcess(env,
 * { entry: TOOLS_GATEWAY_MAIN })`. Prints the same "serving on" line.
 */
async function main(): Promise<void> {
  const settings = loadSettings();
  const app = await createGateway(settings, { imports: [LedgerToolsModule] });
  await app.listen({ port: settings.server.port, host: settings.server.host });
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  process.stdout.write(`  Toolgate (with test tools) is serving on ${url}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`Toolgate failed to start:\n${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
