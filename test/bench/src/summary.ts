import { printTable } from './bench-support.js';

/**
 * The figures of issue 12, by the key a section returns them under. Each section returns
 * `Record<string, number>` holding the keys it measures (e.g. `{ governedOverNest: 0.93 }`); the
 * summary prints every figure beside its target and the baseline it was set against.
 */
export type FigureKey =
  | 'auditedL1OverL0'
  | 'governedOverNest'
  | 'governedOverFastify'
  | 'writerEventsPerSec'
  | 'approveToResultOverL1P50'
  | 'deadGatewayPickupMs'
  | 'mcpOverRest'
  | 'fixedRateL1P95AddedMs';

interface FigureSpec {
  readonly label: string;
  /** The figure meets its target when it is at least (`min`) or at most (`max`) this. */
  readonly target: { readonly min: number } | { readonly max: number };
  /** The "now" column of issue 12 (the run then in the README, now docs/benchmarks.md, and a fresh one). */
  readonly baseline: string;
  readonly format: (value: number) => string;
}

const ratio = (v: number) => `${v.toFixed(2)}×`;
const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')} events/s`;
const millis = (v: number) => `${Math.round(v).toLocaleString('en-US')} ms`;

/** Issue 12's table: what each figure is, its target and its baseline. */
export const FIGURES: Readonly<Record<FigureKey, FigureSpec>> = {
  auditedL1OverL0: {
    label: 'audited L1 REST ÷ L0 REST, MariaDB, c=64',
    target: { min: 0.5 },
    baseline: '0.18× and 0.11×',
    format: ratio,
  },
  governedOverNest: {
    label: 'governed L0 REST ÷ bare Nest route, same server, c=64',
    target: { min: 1.0 },
    baseline: '0.58× and 0.56–0.58×',
    format: ratio,
  },
  governedOverFastify: {
    label: 'governed L0 REST ÷ Fastify + Zod + timeout route, c=64',
    target: { min: 0.8 },
    baseline: '0.43× and 0.41–0.48×',
    format: ratio,
  },
  writerEventsPerSec: {
    label: 'audit writer, MariaDB, 200k events',
    target: { min: 40_000 },
    baseline: '19.3–22.3k and 19.7k events/s',
    format: perSecond,
  },
  approveToResultOverL1P50: {
    label: 'approve → result p50 ÷ fresh L1 call p50',
    target: { max: 1.3 },
    baseline: '2.3× and 1.95×',
    format: ratio,
  },
  deadGatewayPickupMs: {
    label: 'approved calls of a dead gateway picked up (Redis)',
    target: { max: 200 },
    baseline: 'up to 2,000 ms (polling)',
    format: millis,
  },
  // Issue 25.
  mcpOverRest: {
    label: 'MCP tools/call ÷ REST invoke req/s, same tool and server, c=64',
    target: { min: 0.8 },
    baseline: '0.49× (0.50×)',
    format: ratio,
  },
  fixedRateL1P95AddedMs: {
    label: 'audited L1 p95 added at 2,000 req/s, MariaDB',
    target: { max: 10 },
    baseline: 'not measured before issue 25',
    format: (v) => `${v.toFixed(1)} ms`,
  },
};

const isFigureKey = (key: string): key is FigureKey => Object.hasOwn(FIGURES, key);

/** Collects the figures the sections return, in one run of `npm run bench`. */
export class FigureCollector {
  private readonly values = new Map<FigureKey, number>();

  /**
   * Takes the known figures out of a section's result. Anything else a section returns (its own
   * detail, or nothing yet) is ignored, so a section can start returning figures on its own.
   */
  add(result: unknown): void {
    if (result === null || typeof result !== 'object') return;
    for (const [key, value] of Object.entries(result)) {
      if (isFigureKey(key) && typeof value === 'number' && Number.isFinite(value))
        this.values.set(key, value);
    }
  }

  /** Prints one table with every figure of issue 12: measured value, target, baseline, verdict. */
  print(): void {
    if (this.values.size === 0) return;
    const rows = (Object.keys(FIGURES) as FigureKey[]).map((key) => {
      const spec = FIGURES[key];
      const value = this.values.get(key);
      const target =
        'min' in spec.target ? `≥ ${spec.format(spec.target.min)}` : `≤ ${spec.format(spec.target.max)}`;
      if (value === undefined) return [spec.label, 'not measured in this run', target, spec.baseline, '—'];
      const met = 'min' in spec.target ? value >= spec.target.min : value <= spec.target.max;
      return [spec.label, spec.format(value), target, spec.baseline, met ? 'met' : 'NOT met'];
    });
    printTable(
      'Summary: the figures of issue 12 (this run, beside target and baseline)',
      ['figure', 'measured', 'target', 'baseline (issue 12 "now")', 'verdict'],
      rows,
    );
  }
}
