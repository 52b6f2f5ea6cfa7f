import { Session } from 'node:inspector/promises';

/** One task of the event loop that ran long (everything else waited for it). */
export interface LoopBlock {
  /** When it started, in ms since the profiler started. */
  readonly atMs: number;
  readonly ms: number;
  /** The frames most of its samples ran under, with their share of the block. */
  readonly frames: readonly string[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Frames every stack has: they say nothing about what blocked. */
const NOISE = new Set([
  '(root)',
  '(program)',
  'processTicksAndRejections',
  'runMicrotasks',
  'listOnTimeout',
  'processTimers',
]);

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/(?:work\/[^/]+|node_modules)\//, '').replace(/^file:\/\//, '');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

/**
 * Samples this process's CPU (V8's profiler, through the inspector) while the fuzzer runs, and
 * finds the stretches where the event loop never went idle: the synchronous work that delays every
 * other request of the gateway (it runs in this process). Opt-in: profiling costs some throughput.
 */
export class BlockProfiler {
  private readonly session = new Session();

  async start(intervalUs = 500): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await this.session.post('Profiler.start');
  }

  /** The tasks of at least `minMs`, longest first, each with the frames that filled it. */
  async stop(minMs: number, top = 10): Promise<LoopBlock[]> {
    const { profile } = (await this.session.post('Profiler.stop')) as unknown as { profile: Profile };
    this.session.disconnect();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const stack = (id: number): ProfileNode[] => {
      const frames: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)!);
      return frames;
    };
    // One task of the loop ≈ consecutive busy samples under the same entry frame (the child of the
    // root: the callback libuv or the microtask queue ran). GC samples belong to the task they cut.
    const entryOf = (id: number) => {
      const frames = stack(id);
      return frames.length >= 2 ? frames[frames.length - 2]!.id : id;
    };
    const blocks: LoopBlock[] = [];
    let t = 0;
    let run: { start: number; end: number; entry: number; samples: number[] } | undefined;
    const close = () => {
      if (run && run.end - run.start >= minMs * 1000) blocks.push(this.describe(run, stack));
      run = undefined;
    };
    profile.samples.forEach((id, i) => {
      t += profile.timeDeltas[i] ?? 0;
      const name = byId.get(id)!.callFrame.functionName;
      if (name === '(idle)') return close();
      if (name === '(garbage collector)' || name === '(program)') {
        if (run) {
          run.end = t;
          run.samples.push(id);
        }
        return;
      }
      const entry = entryOf(id);
      if (run && run.entry !== entry) close();
      run ??= { start: t, end: t, entry, samples: [] };
      run.end = t;
      run.samples.push(id);
    });
    close();
    return blocks.sort((a, b) => b.ms - a.ms).slice(0, top);
  }

  private describe(
    run: { start: number; end: number; samples: number[] },
    stack: (id: number) => ProfileNode[],
  ): LoopBlock {
    // What ran: the leaf frames (where the time went) and the project's own frames (whose work it was).
    const leaves = new Map<string, number>();
    const owners = new Map<string, number>();
    for (const id of run.samples) {
      const frames = stack(id).map(frameName);
      const leaf = frames[0]!;
      leaves.set(leaf, (leaves.get(leaf) ?? 0) + 1);
      for (const name of new Set(frames.filter((f) => /\s(apps|libs|test)\//.test(f))))
        owners.set(name, (owners.get(name) ?? 0) + 1);
    }
    const topOf = (m: Map<string, number>, n: number) =>
      [...m.entries()]
        .filter(([name]) => !NOISE.has(name.split(' ')[0]!))
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, k]) => `${Math.round((100 * k) / run.samples.length)}% ${name}`);
    const frames = [...topOf(leaves, 4).map((f) => `self ${f}`), ...topOf(owners, 5).map((f) => `in ${f}`)];
    return { atMs: run.start / 1000, ms: (run.end - run.start) / 1000, frames };
  }
}
