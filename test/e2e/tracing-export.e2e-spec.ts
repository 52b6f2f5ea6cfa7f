import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { SapSimulator, type SimulatorRequest, type SimulatorResponse } from '@toolgate/tool-packs/testing';
import {
  callApi,
  createTestDatabase,
  makeConfigDir,
  startGatewayProcess,
  startOtlpReceiver,
  waitFor,
  type GatewayProcess,
  type OtlpReceiver,
  type TestDatabase,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = 'tg_tracing-test-admin-key-0123456';
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER = `00-${CALLER_TRACE}-b7ad6b7169203331-01`;

/** The demo SAP Gateway, remembering the `traceparent` of every request it gets. */
class TracedSap extends SapSimulator {
  readonly traceparents: (string | undefined)[] = [];
  protected override handle(req: SimulatorRequest): SimulatorResponse {
    const header = req.headers.traceparent;
    this.traceparents.push(typeof header === 'string' ? header : undefined);
    return super.handle(req);
  }
}

const HOOLI_YAML = `
id: hooli
name: Hooli
connectors:
  sap:
    baseUrl: \${TOOLGATE_T_HOOLI__SAP_URL}
    client: '100'
    username: TOOLGATE
    password: demo-sap-password
agentTypes:
  contract_review:
    tools:
      - name: query_supplier_delivery
        implementation: sap
`;

/**
 * The gateway as its own process, configured only through the standard OTEL_* variables, exports
 * a call's spans over OTLP/HTTP to a loopback receiver; the SAP upstream joins the same trace.
 */
describe('trace export over OTLP/HTTP, with the upstream hop', () => {
  let db: TestDatabase;
  let sap: TracedSap;
  let receiver: OtlpReceiver;
  let gw: GatewayProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    sap = new TracedSap();
    receiver = await startOtlpReceiver();
    gw = await startGatewayProcess({
      DATABASE_URL: db.url,
      TOOLGATE_DEMO: 'off',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_CONFIG_DIR: makeConfigDir({ hooli: HOOLI_YAML }),
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(16).toString('hex'),
      TOOLGATE_T_HOOLI__SAP_URL: await sap.start(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: 'toolgate-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
    await receiver?.close();
    await sap?.close();
    await db?.drop();
  });

  it('exports the invoke, the governed call, the audit writes and the SAP request in the caller’s trace', async () => {
    const key = (
      await callApi(gw.url, 'POST', '/v1/admin/keys', {
        key: ADMIN,
        body: { name: 'agent', role: 'agent', tenantId: 'hooli' },
      })
    ).body.data.key as string;
    const res = await callApi(
      gw.url,
      'POST',
      '/v1/agents/contract_review/tools/query_supplier_delivery/invoke',
      {
        key,
        body: { input: { supplierId: 'V10023' } },
        headers: { traceparent: CALLER },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');

    // SAP received a traceparent of the caller's trace, naming the gateway's client span.
    expect(sap.traceparents).toHaveLength(1);
    const [, sapTrace, sapParent] = sap.traceparents[0]!.split('-');
    expect(sapTrace).toBe(CALLER_TRACE);

    const inTrace = () => receiver.spans.filter((s) => s.traceId === CALLER_TRACE);
    await waitFor(() => inTrace().length >= 5, { timeoutMs: 10_000 });
    const byName = (name: string) => inTrace().filter((s) => s.name === name);
    expect(inTrace().every((s) => s.serviceName === 'toolgate-under-test')).toBe(true);
    const [inbound] = byName('toolgate.invoke');
    const [call] = byName('toolgate.call');
    expect(call!.parentSpanId).toBe(inbound!.spanId);
    expect(call!.attributes).toMatchObject({
      'toolgate.tenant': 'hooli',
      'toolgate.tool': 'query_supplier_delivery',
      'toolgate.implementation': 'sap',
      'toolgate.risk_level': 'L1',
      'toolgate.outcome': 'OK',
    });
    expect(byName('toolgate.audit.write')).toHaveLength(2);
    const upstream = inTrace().find((s) => s.attributes['toolgate.upstream'] === 'sap');
    expect(upstream).toBeDefined();
    expect(upstream!.parentSpanId).toBe(call!.spanId);
    expect(upstream!.spanId).toBe(sapParent);
    expect(receiver.refused).toBe(0);
  });
});
