import type { Metric, Registry, RegistryContentType } from 'prom-client';

/** The label value of everything past the series cap (and, for tools, of tools outside the registry). */
export const OTHER_LABEL = 'other';

/** The labels every tool-call series carries. */
export type CallLabels = Readonly<Record<'tool' | 'code' | 'face', string>>;

/** One label set's numbers: a count, a sum and non-cumulative bucket counts. */
interface Series {
  readonly labels: CallLabels;
  count: number;
  sum: number;
  readonly buckets: Float64Array;
}

/** One line of the exposition: prom-client's own shape (`metricName` names `_bucket`, `_sum`...). */
interface ExportedValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName?: string;
}

/** What prom-client's registry reads of a metric (`get`, `reset`, name, help, type, aggregator). */
interface ExportedMetric {
  name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: ExportedValue[] }>;
  reset(): void;
}

/**
 * The tool-call counter and latency histogram, kept as plain numbers per label set and exported
 * through prom-client's registry in its own text format. Why not prom-client's Counter and
 * Histogram: even a cached `labels()` child hashes its label object on every `inc`/`observe`
 * (measured: ~600 bytes and a sort per call on the governed hot path); here one call is three Map
 * lookups by the label values as they come (no key string built) and a few additions, and the
 * labels are built once per series.
 */
export class CallSeries {
  /** Every series, in the order first seen (the exposition's order). */
  private readonly series: Series[] = [];
  /** The same series by tool, then code, then face. */
  private readonly index = new Map<string, Map<string, Map<string, Series>>>();

  /**
   * @param maxSeries label sets kept at most: a new one past it is counted under `tool="other",
   * code="other"` (with its face), so no caller can grow the exposition without bound.
   */
  constructor(
    private readonly bounds: readonly number[],
    names: { readonly calls: string; readonly duration: string },
    help: { readonly calls: string; readonly duration: string },
    registry: Registry<RegistryContentType>,
    private readonly maxSeries = Infinity,
  ) {
    this.register(registry, names.calls, help.calls, 'counter', () => this.counterValues());
    this.register(registry, names.duration, help.duration, 'histogram', (name) => this.histogramValues(name));
  }

  /** Counts one call and records its duration in seconds. */
  record(tool: string, code: string, face: string, seconds: number): void {
    const s = this.seriesOf(tool, code, face);
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < this.bounds.length; i++) {
      if (seconds <= this.bounds[i]!) {
        s.buckets[i]!++;
        break;
      }
    }
  }

  /** A label set's series, found by nested lookups (no key string built per call), made on first use. */
  private seriesOf(tool: string, code: string, face: string): Series {
    let byCode = this.index.get(tool);
    if (!byCode) this.index.set(tool, (byCode = new Map()));
    let byFace = byCode.get(code);
    if (!byFace) byCode.set(code, (byFace = new Map()));
    let s = byFace.get(face);
    if (!s) {
      if (this.series.length >= this.maxSeries && (tool !== OTHER_LABEL || code !== OTHER_LABEL))
        return this.seriesOf(OTHER_LABEL, OTHER_LABEL, face);
      s = { labels: { tool, code, face }, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length) };
      byFace.set(face, s);
      this.series.push(s);
    }
    return s;
  }

  private counterValues(): ExportedValue[] {
    return this.series.map((s) => ({ labels: { ...s.labels }, value: s.count }));
  }

  /** Cumulative buckets, then `+Inf`, `_sum` and `_count`, as prom-client's Histogram writes them. */
  private histogramValues(name: string): ExportedValue[] {
    const values: ExportedValue[] = [];
    for (const s of this.series) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push(
        { labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${name}_bucket` },
        { labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` },
        { labels: { ...s.labels }, value: s.count, metricName: `${name}_count` },
      );
    }
    return values;
  }

  private register(
    registry: Registry<RegistryContentType>,
    name: string,
    help: string,
    type: ExportedMetric['type'],
    values: (name: string) => ExportedValue[],
  ): void {
    const metric: ExportedMetric = {
      name,
      help,
      type,
      aggregator: 'sum',
      // `metric.name`: the registry renames counters for OpenMetrics.
      get: async () => ({
        name: metric.name,
        help,
        type,
        aggregator: 'sum',
        values: values(metric.name),
      }),
      reset: () => {
        this.series.length = 0;
        this.index.clear();
      },
    };
    // The registry only reads the members above; prom-client's Metric type is its own class.
    registry.registerMetric(metric as unknown as Metric);
  }
}
