import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  AuditQueries,
  AuditWriter,
  CallProjector,
  CheckpointService,
  draftEvent,
  type AuditEventDraft,
} from '@toolgate/audit';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { BenchToolsModule } from './bench-tools.js';
import { printTable } from './bench-support.js';

const TENANT = 'trail';
const TOOLS = ['restart_service', 'read_logs', 'scale_service', 'rotate_secret', 'flush_cache'];
const AGENTS = ['ops_assistant', 'billing_bot', 'support_agent'];
const KEYS = Array.from({ length: 20 }, (_, i) => `019a0000-0000-7000-8000-${String(i).padStart(12, '0')}`);
const APPROVERS = ['zhang.san', 'li.si', 'wang.wu'];
/** Events of the newest stretch the incremental verify reads (issue 23: the newest 100k). */
const NEWEST = 100_000;

/**
 * Issue 23's trail figures on MariaDB (`--only trail`): `--events <n>` events generated (default
 * 1,000,000; the issue's target is 10M, which takes hours here), then `GET /v1/audit/calls` first
 * page p95 for each filter, incremental verify of the newest 100k events, and the evidence ZIP of
 * all of them: time and peak memory (ADR 046: streamed).
 */
export async function trailFigures(
  env: Record<string, string>,
  count: number,
): Promise<Record<string, number>> {
  const settings = loadSettings({ ...env, TOOLGATE_LOG_LEVEL: 'warn', TOOLGATE_DEMO: 'off', PORT: '0' });
  const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const writer = app.get(AuditWriter);
  const checkpoints = app.get(CheckpointService);
  const projector = app.get(CallProjector);
  process.stdout.write(`\ntrail: generating ${count.toLocaleString('en-US')} events in MariaDB…\n`);

  // The chain up to the newest stretch, a checkpoint, then the newest stretch: what an incremental
  // verify starts from on a gateway that checkpoints as it runs.
  const older = Math.max(0, count - NEWEST);
  const t0 = performance.now();
  let written = await generate(writer, 0, older);
  if (older) await checkpoints.run([TENANT]);
  written = await generate(writer, written, count);
  const writeS = (performance.now() - t0) / 1000;
  process.stdout.write(
    `trail: ${written.toLocaleString('en-US')} events written in ${writeS.toFixed(0)} s; projecting calls…\n`,
  );
  const p0 = performance.now();
  while ((await projector.catchUp()) > 0);
  const projectS = (performance.now() - p0) / 1000;

  // Wall clock and this process's CPU: on a shared machine the wall clock is mostly waiting.
  const v0 = performance.now();
  const c0 = process.cpuUsage();
  const incremental = await checkpoints.verify([TENANT], {}, { incremental: true });
  const verifyS = (performance.now() - v0) / 1000;
  const verifyCpu = process.cpuUsage(c0);
  const verifyCpuS = (verifyCpu.user + verifyCpu.system) / 1e6;
  const verified = incremental.tenants[0];

  const calls = await callsP95(url, env.TOOLGATE_ADMIN_KEY!);

  // The evidence file of the whole chain, to a sink that keeps nothing. Planning it signs a
  // checkpoint (verifying the chain's tail); writing it is what ADR 046 streams: RSS sampled, and
  // the heap that stays reachable (after a forced collection, every 8 MB written) — the young
  // generation (--max-semi-space-size=64) otherwise shows up to ~200 MB of garbage as "heap".
  const queries = app.get(AuditQueries);
  const p0e = performance.now();
  const plan = await queries.evidencePlan({ tenantId: TENANT }, null);
  const planS = (performance.now() - p0e) / 1000;
  const gc = collector();
  gc();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakLive = base.heapUsed;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
  const e0 = performance.now();
  let zipBytes = 0;
  let nextSample = 0;
  const { manifest } = await queries.writeEvidence(
    plan,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        zipBytes += chunk.length;
        if (zipBytes >= nextSample) {
          gc();
          peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
          nextSample = zipBytes + (8 << 20);
        }
        done();
      },
    }),
  );
  const evidenceS = (performance.now() - e0) / 1000;
  clearInterval(sampler);
  await app.close();
  const mb = (n: number) => n / 1024 / 1024;

  printTable(
    `Trail on MariaDB, ${written.toLocaleString('en-US')} events (--events; issue 23 asks 10M): GET /v1/audit/calls first page, 30 requests per filter`,
    ['filter', 'rows', 'p50 ms', 'p95 ms', 'target'],
    calls.map((c) => [c.filter, c.rows, c.p50, c.p95, 'p95 ≤ 100 ms']),
  );
  printTable(
    `Trail on MariaDB, ${written.toLocaleString('en-US')} events: verify, evidence, generation`,
    ['measure', 'figure', 'target'],
    [
      [
        `incremental verify (from seq ${verified?.verifiedFromSeq ?? 0}, ${incremental.checked.toLocaleString('en-US')} events${incremental.ok ? '' : ', NOT OK'})`,
        `${verifyS.toFixed(2)} s (gateway CPU ${verifyCpuS.toFixed(2)} s)`,
        '≤ 3 s for 100k',
      ],
      [
        `evidence ZIP of ${manifest.events.toLocaleString('en-US')} events (${mb(zipBytes).toFixed(0)} MB zipped, ${mb(manifest.files[0]!.bytes).toFixed(0)} MB of events.jsonl)`,
        `${evidenceS.toFixed(1)} s written, ${(manifest.events / evidenceS).toFixed(0)} events/s`,
        '—',
      ],
      [
        'evidence ZIP while written: peak RSS / reachable heap above the start',
        `${mb(peakRss - base.rss).toFixed(0)} MB / ${mb(peakLive - base.heapUsed).toFixed(1)} MB`,
        'flat (ADR 046)',
      ],
      ['evidence plan (signs a checkpoint: verifies the chain since the last)', `${planS.toFixed(1)} s`, '—'],
      [
        'events written (group commit, 8 appenders of 1,000)',
        `${(written / writeS).toFixed(0)} events/s`,
        '—',
      ],
      ['calls projected (audit_calls catch-up)', `${(written / projectS).toFixed(0)} events/s`, '—'],
    ],
  );
  return {
    trailCallsWorstP95Ms: Math.max(...calls.map((c) => c.p95)),
    trailIncrementalVerifyS: verifyS,
    trailEvidenceS: evidenceS,
    trailEvidencePeakRssMb: mb(peakRss - base.rss),
  };
}

/** A collection on demand (the bench runs without --expose-gc). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Events `from … to-1` as calls: an L1 call is `started` + `finished`, every fifth an L2 call with
 * an approval requested and decided first; a tenth of them fail. Keys are named by `key_created`.
 */
async function generate(writer: AuditWriter, from: number, to: number): Promise<number> {
  let next = from;
  let call = from;
  const batch = () => {
    const drafts: AuditEventDraft[] = [];
    while (drafts.length < 1000 && next < to) {
      if (next < KEYS.length) {
        drafts.push(
          draftEvent({
            tenantId: TENANT,
            event: 'key_created',
            actor: { type: 'system', id: 'bench' },
            details: { keyId: KEYS[next], name: `agent-key-${next}` },
            occurredAt: new Date(),
            instanceId: 'bench',
          }),
        );
        next++;
        continue;
      }
      // Call numbers, not event numbers, pick the call's properties (calls are 2 or 4 events long).
      const n = call++;
      const callId = `019b${next.toString(16).padStart(8, '0')}-0000-7000-8000-000000000000`;
      const l2 = n % 5 === 0;
      const common = {
        tenantId: TENANT,
        callId,
        tool: TOOLS[n % TOOLS.length]!,
        agentType: AGENTS[n % AGENTS.length]!,
        riskLevel: l2 ? 'L2' : 'L1',
        implementation: 'http',
        actor: { type: 'api_key' as const, id: KEYS[n % KEYS.length]! },
        occurredAt: new Date(),
        instanceId: 'bench',
      };
      const input = { service: `svc-${n % 500}`, reason: 'scheduled maintenance window', replicas: n % 7 };
      const events: AuditEventDraft[] = [];
      if (l2) {
        events.push(draftEvent({ ...common, event: 'approval_requested', input, details: { face: 'rest' } }));
        events.push(
          draftEvent({
            ...common,
            event: 'approval_decided',
            actor: { type: 'user', id: APPROVERS[n % APPROVERS.length]! },
            approverId: APPROVERS[n % APPROVERS.length]!,
            details: {
              decision: 'approve',
              outcome: 'approved',
              approver: {
                type: 'user',
                id: APPROVERS[n % APPROVERS.length],
                name: APPROVERS[n % APPROVERS.length],
              },
            },
          }),
        );
      }
      events.push(draftEvent({ ...common, event: 'started', input, details: { face: 'rest' } }));
      const failed = n % 10 === 3;
      events.push(
        draftEvent({
          ...common,
          event: 'finished',
          status: failed ? 'error' : 'ok',
          code: failed ? 'UPSTREAM_ERROR' : null,
          durationMs: 20 + (n % 200),
          details: {},
        }),
      );
      drafts.push(...events.slice(0, to - next));
      next += Math.min(events.length, to - next);
    }
    return drafts;
  };
  const appender = async () => {
    for (let drafts = batch(); drafts.length; drafts = batch()) await writer.append(drafts, 120_000);
  };
  await Promise.all(Array.from({ length: 8 }, appender));
  return next;
}

/** First page of `GET /v1/audit/calls` for each filter: p50 and p95 of 30 requests after 3 warm-ups. */
async function callsP95(
  url: string,
  adminKey: string,
): Promise<{ filter: string; rows: number; p50: number; p95: number }[]> {
  const filters: [string, string][] = [
    ['(none)', ''],
    ['tenantId', `tenantId=${TENANT}`],
    ['agentType', 'agentType=billing_bot'],
    ['tool', 'tool=rotate_secret'],
    ['riskLevel', 'riskLevel=L2'],
    ['state', 'state=failed'],
    ['status', 'status=error'],
    ['code', 'code=UPSTREAM_ERROR'],
    ['face', 'face=rest'],
    ['target', 'target=svc-42'],
    ['input', 'input=service%3Dsvc-42'],
    ['person (key name)', 'person=agent-key-7'],
    ['requester (id)', `requester=${KEYS[3]}`],
    ['approver', 'approver=li.si'],
    ['callId', `callId=019b${(4244).toString(16).padStart(8, '0')}-0000-7000-8000-000000000000`],
    [
      'from/to (one minute)',
      `from=${new Date(Date.now() - 60_000).toISOString()}&to=${new Date().toISOString()}`,
    ],
    ['tool + status', 'tool=restart_service&status=error'],
  ];
  const out = [];
  for (const [filter, query] of filters) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 33; i++) {
      const t = performance.now();
      const res = await fetch(`${url}/v1/audit/calls?${query.replace(/\+/g, '%2B')}`, {
        headers: { authorization: `Bearer ${adminKey}` },
      });
      const body = (await res.json()) as { data?: { items: unknown[] }; message?: string };
      if (res.status !== 200) throw new Error(`GET /v1/audit/calls?${query}: ${res.status} ${body.message}`);
      rows = body.data!.items.length;
      if (i >= 3) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    out.push({
      filter,
      rows,
      p50: times[Math.floor(times.length / 2)]!,
      p95: times[Math.ceil(times.length * 0.95) - 1]!,
    });
  }
  return out;
}
