import { Counter, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CALL_DURATION_BUCKETS } from './call-metrics.hook.js';
import { CallSeries } from './call-series.js';

const names = { calls: 'calls_total', duration: 'call_duration_seconds' };
const help = { calls: 'calls', duration: 'latency' };
const observations: [string, string, string, number][] = [
  ['get_status', 'OK', 'rest', 0.0003],
  ['get_status', 'OK', 'rest', 0.0005],
  ['get_status', 'OK', 'rest', 0.2],
  ['get_status', 'TIMEOUT', 'mcp', 10],
  ['record_note', 'OK', 'none', 45],
  ['quote"d\\tool', 'OK', 'run', 0.001],
];

describe('CallSeries', () => {
  it.each([Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE])(
    'writes exactly what prom-client Counter and Histogram write for the same calls (%s)',
    async (contentType) => {
      const registry = () => {
        const r = new Registry<RegistryContentType>();
        r.setContentType(contentType);
        return r;
      };
      const ours = registry();
      const series = new CallSeries(CALL_DURATION_BUCKETS, names, help, ours);
      const theirs = registry();
      const labelNames = ['tool', 'code', 'face'] as const;
      const counter = new Counter({ name: names.calls, help: help.calls, labelNames, registers: [theirs] });
      const histogram = new Histogram({
        name: names.duration,
        help: help.duration,
        labelNames,
        buckets: CALL_DURATION_BUCKETS,
        registers: [theirs],
      });
      for (const [tool, code, face, seconds] of observations) {
        series.record(tool, code, face, seconds);
        counter.inc({ tool, code, face });
        histogram.observe({ tool, code, face }, seconds);
      }
      expect(await ours.metrics()).toBe(await theirs.metrics());
      // JSON too, but for prom-client's `exemplar: null` on each bucket.
      const withoutExemplars = (
        metrics: Awaited<ReturnType<Registry<RegistryContentType>['getMetricsAsJSON']>>,
      ) => metrics.map((m) => ({ ...m, values: m.values.map(({ labels, value }) => ({ labels, value })) }));
      expect(withoutExemplars(await ours.getMetricsAsJSON())).toEqual(
        withoutExemplars(await theirs.getMetricsAsJSON()),
      );
    },
  );

  it('starts again from zero when the registry resets', async () => {
    const registry = new Registry();
    const series = new CallSeries(CALL_DURATION_BUCKETS, names, help, registry);
    series.record('t', 'OK', 'rest', 0.01);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('tool="t"');
  });

  it('keeps at most maxSeries label sets; later ones are counted as tool="other", code="other"', async () => {
    const registry = new Registry();
    const series = new CallSeries(CALL_DURATION_BUCKETS, names, help, registry, 3);
    for (let i = 0; i < 50; i++) series.record(`tool_${i}`, `CODE_${i}`, 'rest', 0.01);
    series.record('tool_0', 'CODE_0', 'rest', 0.01);
    const text = await registry.metrics();
    const counted = text.split('\n').filter((l) => l.startsWith('calls_total{'));
    expect(counted).toEqual([
      'calls_total{tool="tool_0",code="CODE_0",face="rest"} 2',
      'calls_total{tool="tool_1",code="CODE_1",face="rest"} 1',
      'calls_total{tool="tool_2",code="CODE_2",face="rest"} 1',
      'calls_total{tool="other",code="other",face="rest"} 47',
    ]);
  });
});
