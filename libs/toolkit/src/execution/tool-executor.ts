import { Inject, Injectable, Logger } from '@nestjs/common';
import { isOk, ok, type Envelope, type ErrorEnvelope } from '../errors/envelope.js';
import { ErrorCode } from '../errors/error-codes.js';
import { envelopeForThrown } from '../errors/error-mapping.js';
import { errorEnvelope, ToolCallFailedError } from '../errors/toolgate-error.js';
import { TOOLKIT_OPTIONS, type ToolkitOptions } from '../toolkit.options.js';
import type { InputIssue } from '../schema/input-issue.js';
import { invalidInputEnvelope, summarizeIssues } from '../schema/issue-messages.js';
import { CallContext } from './call-context.js';
import { tracedCall } from './call-span.js';
import { tracingEnabled } from '@toolgate/telemetry';
import type { ToolCallHook } from './call-hooks.js';
import { findUnstorableInput } from './input-guard.js';
import { labelText } from './labels.js';
import { guardOutput } from './output-guard.js';
import type {
  CallStage,
  EffectiveTool,
  ErrorOrigin,
  LateOutcome,
  ToolCall,
  ToolCallRequest,
  ToolCallResult,
  ToolCallStop,
} from './tool-call.js';
import { SYSTEM_PRINCIPAL } from './tool-context.js';
import { uuidv7 } from '../util/ids.js';
import type { MaybePromise } from '../util/and-then.js';
import { settled } from '../util/settled.js';

type BodyOutcome =
  { kind: 'ok'; output: unknown } | { kind: 'error'; envelope: ErrorEnvelope } | { kind: 'timeout' };

interface OrderedHook {
  readonly hook: ToolCallHook;
  readonly order: number;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (
    v !== null &&
    (typeof v === 'object' || typeof v === 'function') &&
    typeof (v as PromiseLike<unknown>).then === 'function'
  );
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * A call on its way through the pipeline. A class, not an object literal with a `state` getter: a
 * literal's getter is a new closure per call and gives each call object a map of its own, made in
 * old space, whose closure then kept the whole request graph alive through every scavenge
 * (measured: ~19% of the bytes of a governed L0 call promoted, GC the largest item of its profile).
 */
class PipelineCall implements ToolCall {
  readonly tool: EffectiveTool;
  readonly rawInput: unknown;
  private stateMap: Map<symbol, unknown> | undefined = undefined;
  /** A hook's rewrite of the result (call-rewrites.ts: a rule's or guardrail's mask); usually none. */
  outputRewrite: ((output: unknown) => unknown) | undefined = undefined;

  constructor(
    readonly id: string,
    readonly request: ToolCallRequest,
    readonly ctx: CallContext,
    /** Writable only through replaceCallInput (call-rewrites.ts), before the tool runs. */
    public input: unknown,
    readonly startedAt: number,
  ) {
    this.tool = request.tool;
    this.rawInput = request.input;
  }

  get state(): Map<symbol, unknown> {
    return (this.stateMap ??= new Map());
  }
}

/** What a generator tool that yielded nothing produced: no result. */
const NO_SNAPSHOT = Symbol('no-snapshot');

/** The reason `ctx.abortSignal` carries when a call passes its time limit. */
export class ToolTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Runs tool calls: the one pipeline every caller goes through (REST, MCP, agent runs, in-process).
 *
 *   storable input → validate → hooks.beforeExecute (approval, audit "started") → execute with
 *   time limit and AbortSignal → output checks → envelope → hooks.afterCall (audit "finished")
 *
 * Tool failures are data: every outcome is an envelope, nothing a tool does escapes as an exception.
 * A tool that blocks the event loop cannot be pre-empted: the time limit fires when it yields.
 */
@Injectable()
export class ToolExecutor {
  private readonly logger = new Logger(ToolExecutor.name);
  private beforeHooks: ToolCallHook[] = [];
  private afterHooks: ToolCallHook[] = [];
  private lateHooks: ToolCallHook[] = [];

  constructor(@Inject(TOOLKIT_OPTIONS) private readonly options: ToolkitOptions) {}

  /** Installs the pipeline hooks; called once at boot by the explorer. */
  useHooks(hooks: readonly OrderedHook[]): void {
    const sorted = [...hooks].sort((a, b) => a.order - b.order).map((h) => h.hook);
    this.beforeHooks = sorted.filter((h) => h.beforeExecute);
    this.afterHooks = sorted.filter((h) => h.afterCall).reverse();
    this.lateHooks = sorted.filter((h) => h.onLateCompletion);
  }

  /**
   * Runs one call through the whole pipeline; every outcome of the tool is the result's envelope.
   * A plain value when the call completes synchronously — a synchronous tool whose hooks all answer
   * synchronously (an L0 call without quotas or approval), the REST hot path, where every promise
   * layer is an allocation and a trip through the microtask queue (ADR 022) — a promise otherwise,
   * and always when tracing (its `toolgate.call` span ends asynchronously, ADR 019). A synchronous
   * platform failure (a hook, not the tool) is thrown; `await` makes it the rejection.
   */
  run(request: ToolCallRequest): MaybePromise<ToolCallResult> {
    if (!tracingEnabled()) return this.runPipeline(request);
    return tracedCall(request, () => settled(() => this.runPipeline(request)));
  }

  private runPipeline(request: ToolCallRequest): ToolCallResult | Promise<ToolCallResult> {
    const startedAt = Date.now();
    const t0 = performance.now();
    const callId = request.callId ?? uuidv7(startedAt);
    const { tool, locale } = request;

    const unstorable = findUnstorableInput(request.input, this.options.maxInputDepth);
    if (unstorable) {
      return this.invalid(callId, [unstorable], 'refused', t0, locale);
    }
    const checked = tool.contract.input.check(request.input);
    const ctx = new CallContext(callId, request);
    const call = new PipelineCall(callId, request, ctx, checked.ok ? checked.value : undefined, startedAt);
    if (!checked.ok) {
      return this.finish(call, this.invalid(callId, checked.issues, 'invalid', t0, locale));
    }

    // Listen before the hooks run: a caller that leaves while approval or audit is consulted must
    // still stop the call, and a signal that already fired is honoured at once.
    const signal = request.signal;
    if (!signal) return this.runHooksAndBody(call, ctx, t0, 0);
    const onAbort = () => ctx.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    let outcome;
    try {
      outcome = this.runHooksAndBody(call, ctx, t0, 0);
    } catch (err) {
      signal.removeEventListener('abort', onAbort);
      throw err;
    }
    if (!(outcome instanceof Promise)) {
      signal.removeEventListener('abort', onAbort);
      return outcome;
    }
    return outcome.finally(() => signal.removeEventListener('abort', onAbort));
  }

  /**
   * The beforeExecute hooks from `from` on, then the body. Synchronous while every hook answers
   * synchronously; from the first hook that returns a promise, the rest wait for it in turn.
   */
  private runHooksAndBody(
    call: PipelineCall,
    ctx: CallContext,
    t0: number,
    from: number,
  ): ToolCallResult | Promise<ToolCallResult> {
    for (let i = from; i < this.beforeHooks.length; i++) {
      let stop;
      try {
        stop = this.beforeHooks[i]!.beforeExecute!(call);
      } catch (err) {
        stop = this.beforeHookFailed(call, err);
      }
      if (isThenable(stop)) return this.afterBeforeHook(stop, call, ctx, t0, i + 1);
      if (stop) return this.finish(call, this.result(call.id, stop.envelope, 'stopped', t0));
    }
    return this.runBody(call, ctx, t0);
  }

  private async afterBeforeHook(
    pending: PromiseLike<ToolCallStop | undefined>,
    call: PipelineCall,
    ctx: CallContext,
    t0: number,
    next: number,
  ): Promise<ToolCallResult> {
    let stop;
    try {
      stop = await pending;
    } catch (err) {
      stop = this.beforeHookFailed(call, err);
    }
    if (stop) return this.finish(call, this.result(call.id, stop.envelope, 'stopped', t0));
    return this.runHooksAndBody(call, ctx, t0, next);
  }

  private beforeHookFailed(call: ToolCall, err: unknown): ToolCallStop {
    this.logger.error(
      `pipeline hook failed before ${call.tool.contract.name}; the tool was not run`,
      err as Error,
    );
    return { envelope: errorEnvelope(ErrorCode.INTERNAL_ERROR, call.request.locale) };
  }

  private runBody(
    call: PipelineCall,
    ctx: CallContext,
    t0: number,
  ): ToolCallResult | Promise<ToolCallResult> {
    if (ctx.aborted) {
      // The caller went away before the tool started: nothing to run for nobody.
      const envelope = this.abortedEnvelope(call.request.locale);
      return this.finish(call, this.result(call.id, envelope, 'stopped', t0));
    }
    this.emitLabel(call, 'start');
    // A synchronous tool's outcome is used as it is: awaiting a plain value still costs a promise
    // and a trip through the microtask queue on every call.
    const body = this.executeBody(call, ctx);
    if (body instanceof Promise)
      return body.then((outcome) => this.finish(call, this.toResult(call, outcome, t0)));
    return this.finish(call, this.toResult(call, body, t0));
  }

  private abortedEnvelope(locale: ToolCallRequest['locale']): ErrorEnvelope {
    return errorEnvelope(ErrorCode.UPSTREAM_ERROR, locale, {
      message: locale === 'en' ? 'the caller went away before the tool ran' : '调用方已断开，工具未执行',
    });
  }

  /**
   * The uniform tool signature of docs/tool-design-rules.md §A1, `(input) => Promise<string>`: the envelope as JSON.
   * @example const call = executor.callable({ tool, tenant, ... }); const json = await call({ service: 'x' });
   */
  callable(base: Omit<ToolCallRequest, 'input'>): (input: unknown) => Promise<string> {
    return async (input) => JSON.stringify((await this.run(Object.assign({}, base, { input }))).envelope);
  }

  /**
   * A governed call made by code in the process (a `@Tool` method called directly). When the caller
   * passes the `ctx` of the call it runs inside, the new call inherits its tenant, principal,
   * session and locale; without one it runs as `system`. The context travels explicitly, never
   * through a global. Resolves to the tool's data; rejects with ToolCallFailedError.
   */
  async runInProcess(tool: EffectiveTool, input: unknown, callerCtx?: unknown): Promise<unknown> {
    const outer = callerCtx instanceof CallContext ? callerCtx : undefined;
    const parent = outer?.request;
    const result = await this.run({
      tool,
      input,
      tenant: outer?.tenant ?? null,
      agentType: outer?.agentType ?? null,
      principal: outer ? outer.session.auth.current : SYSTEM_PRINCIPAL,
      initiator: outer ? outer.session.auth.initiator : SYSTEM_PRINCIPAL,
      sessionId: outer?.session.id,
      turnId: outer?.session.turn.id,
      parentSessionId: outer?.session.parent?.id ?? null,
      locale: outer?.locale ?? this.options.defaultLocale,
      connectors: parent?.connectors,
      attributes: Object.assign({}, parent?.attributes, {
        inProcess: true,
        parentCallId: outer?.callId ?? null,
      }),
    });
    if (isOk(result.envelope)) return result.envelope.data;
    throw new ToolCallFailedError(result.envelope);
  }

  private invalid(
    callId: string,
    issues: readonly InputIssue[],
    stage: CallStage,
    t0: number,
    locale: ToolCallRequest['locale'],
  ): ToolCallResult {
    return Object.assign(this.result(callId, invalidInputEnvelope(issues, locale), stage, t0), { issues });
  }

  private result(
    callId: string,
    envelope: Envelope,
    stage: CallStage,
    t0: number,
    errorOrigin: ErrorOrigin = 'platform',
  ): ToolCallResult {
    const durationMs = performance.now() - t0;
    return isOk(envelope)
      ? { callId, envelope, stage, durationMs }
      : { callId, envelope, stage, durationMs, errorOrigin };
  }

  /**
   * Runs the afterCall hooks in order. Without a promise while every hook answers synchronously
   * (the metrics hook, the audit hook of an L0 call): from the first hook that returns one, the
   * rest wait for it in turn, as before.
   */
  private finish(call: ToolCall, result: ToolCallResult, from = 0): ToolCallResult | Promise<ToolCallResult> {
    for (let i = from; i < this.afterHooks.length; i++) {
      let r;
      try {
        r = this.afterHooks[i]!.afterCall!(call, result);
      } catch (err) {
        this.afterHookFailed(call, err);
        continue;
      }
      if (isThenable(r)) return this.finishAfter(r, call, result, i + 1);
    }
    return result;
  }

  private async finishAfter(
    pending: PromiseLike<unknown>,
    call: ToolCall,
    result: ToolCallResult,
    next: number,
  ): Promise<ToolCallResult> {
    try {
      await pending;
    } catch (err) {
      this.afterHookFailed(call, err);
    }
    return this.finish(call, result, next);
  }

  private afterHookFailed(call: ToolCall, err: unknown): void {
    this.logger.error(`pipeline hook failed after ${call.tool.contract.name}`, err as Error);
  }

  private executeBody(call: ToolCall, ctx: CallContext): BodyOutcome | Promise<BodyOutcome> {
    let produced: unknown;
    try {
      produced = call.tool.implementation.execute(call.input, ctx);
    } catch (err) {
      return { kind: 'error', envelope: envelopeForThrown(err, call.request.locale) };
    }
    if (isAsyncIterable(produced)) {
      produced = this.consumeSnapshots(call, ctx, produced);
    } else if (!isThenable(produced)) {
      return { kind: 'ok', output: produced };
    }
    return this.raceTimeLimit(call, ctx, produced as PromiseLike<unknown>);
  }

  /**
   * Resolves with the body's outcome, or with `timeout` at the time limit (aborting `ctx` with a
   * ToolTimeoutError that names the tool); a body that settles later is reported to the
   * late-completion hooks. A plain timer, cleared as soon as the body settles, on purpose:
   * `AbortSignal.timeout` cannot be cleared, so every finished call would leave its timer and signal
   * pending until the limit (measured: ~58 MB still held after 50 000 no-op calls with the default
   * 10 s limit, where this timer holds none) and cost 2-3x more per call; `AbortSignal.any` would
   * also make every call build signals that the lazy `ctx.abortSignal` spares the calls that never
   * read it.
   */
  private raceTimeLimit(call: ToolCall, ctx: CallContext, body: PromiseLike<unknown>): Promise<BodyOutcome> {
    const { locale } = call.request;
    return new Promise<BodyOutcome>((resolve) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ctx.abort(
          new ToolTimeoutError(`${call.tool.contract.name} passed its ${call.tool.timeoutMs} ms limit`),
        );
        resolve({ kind: 'timeout' });
      }, call.tool.timeoutMs);
      body.then(
        (output) => {
          if (timedOut)
            return this.lateCompletion(call, {
              status: 'ok',
              output,
              durationMs: Date.now() - call.startedAt,
            });
          clearTimeout(timer);
          resolve({ kind: 'ok', output });
        },
        (err: unknown) => {
          const envelope = envelopeForThrown(err, locale);
          if (timedOut)
            return this.lateCompletion(call, {
              status: 'error',
              envelope,
              durationMs: Date.now() - call.startedAt,
            });
          clearTimeout(timer);
          resolve({ kind: 'error', envelope });
        },
      );
    });
  }

  /** Each yield is a whole snapshot; the last one is the result; the generator's return value is ignored. */
  private async consumeSnapshots(
    call: ToolCall,
    ctx: CallContext,
    iterable: AsyncIterable<unknown>,
  ): Promise<unknown> {
    let last: unknown;
    let seen = false;
    for await (const snapshot of iterable) {
      last = snapshot;
      seen = true;
      if (ctx.aborted) break;
      if (call.request.onEvent) {
        // A masked result is masked in its partial snapshots too.
        const rewrite = (call as PipelineCall).outputRewrite;
        call.request.onEvent({ type: 'partial', data: rewrite ? rewrite(snapshot) : snapshot });
        this.emitLabel(call, 'delta', snapshot);
      }
    }
    return seen ? last : NO_SNAPSHOT;
  }

  private toResult(call: ToolCall, outcome: BodyOutcome, t0: number): ToolCallResult {
    const { locale } = call.request;
    if (outcome.kind === 'timeout') {
      return this.result(
        call.id,
        errorEnvelope(ErrorCode.TIMEOUT, locale, { timeoutMs: call.tool.timeoutMs }),
        'timed_out',
        t0,
      );
    }
    if (outcome.kind === 'error') return this.result(call.id, outcome.envelope, 'executed', t0, 'tool');
    if (outcome.output === NO_SNAPSHOT) {
      return this.result(
        call.id,
        this.outputInvalid('the generator finished without yielding a result', locale),
        'executed',
        t0,
      );
    }
    const checked = this.checkOutput(call, outcome.output);
    if ('envelope' in checked) return this.result(call.id, checked.envelope, 'executed', t0);
    const rewrite = (call as PipelineCall).outputRewrite;
    if (rewrite) {
      try {
        checked.value = rewrite(checked.value);
      } catch (err) {
        // A rewrite that fails (a guardrail that blocks) withholds the result, never passes it on.
        return this.result(call.id, envelopeForThrown(err, locale), 'executed', t0);
      }
    }
    const contract = call.tool.contract;
    let modelOutput;
    if (contract.toModelOutput) {
      try {
        modelOutput = contract.toModelOutput(checked.value);
      } catch (err) {
        return this.result(
          call.id,
          this.outputInvalid(`toModelOutput failed: ${(err as Error).message}`, locale),
          'executed',
          t0,
        );
      }
    }
    this.emitLabel(call, 'complete', checked.value);
    // Built whole, not spread from `result`'s: a spread of a non-literal costs more than the call.
    return {
      callId: call.id,
      envelope: ok(checked.value),
      stage: 'executed',
      durationMs: performance.now() - t0,
      output: checked.value,
      modelOutput,
    };
  }

  private checkOutput(call: ToolCall, raw: unknown): { value: unknown } | { envelope: ErrorEnvelope } {
    const { locale } = call.request;
    const schema = call.tool.contract.output;
    let value = raw;
    if (schema && schema.kind !== 'json') {
      const c = schema.check(value);
      if (!c.ok) return { envelope: this.outputInvalid(summarizeIssues(c.issues, locale), locale) };
      value = c.value;
    }
    const guarded = guardOutput(value);
    if (!guarded.ok) {
      const where = guarded.problem.path.length ? ` at path '${guarded.problem.path.join('.')}'` : '';
      return { envelope: this.outputInvalid(`${guarded.problem.reason}${where}`, locale) };
    }
    if (guarded.largeStrings) {
      this.logger.warn(
        `${call.tool.contract.name} returned ${guarded.largeStrings} string(s) over 3 MiB; large files slow every consumer`,
      );
    }
    if (schema?.kind === 'json') {
      const c = schema.check(guarded.value);
      if (!c.ok) return { envelope: this.outputInvalid(summarizeIssues(c.issues, locale), locale) };
    }
    return { value: guarded.value };
  }

  private outputInvalid(message: string, locale: ToolCallRequest['locale']): ErrorEnvelope {
    return errorEnvelope(ErrorCode.OUTPUT_INVALID, locale, { message });
  }

  private emitLabel(call: ToolCall, phase: 'start' | 'delta' | 'complete', value?: unknown): void {
    const onEvent = call.request.onEvent;
    if (!onEvent) return;
    const label = call.tool.contract.label;
    const name = call.tool.contract.name;
    let render: (() => string | undefined) | undefined;
    if (phase === 'start' && label?.start !== undefined) {
      const start = label.start;
      render = typeof start === 'string' ? () => start : () => start(call.input);
    } else if (phase === 'delta' && label?.delta) {
      render = () => label.delta!(call.input, value);
    } else if (phase === 'complete' && label?.complete) {
      render = () => label.complete!(call.input, value);
    } else if (phase === 'delta') {
      return;
    }
    onEvent({ type: 'label', phase, text: labelText(name, render) });
  }

  private lateCompletion(call: ToolCall, outcome: LateOutcome): void {
    for (const hook of this.lateHooks) {
      Promise.resolve()
        .then(() => hook.onLateCompletion!(call, outcome))
        .catch((err: unknown) =>
          this.logger.error(`late-completion hook failed for ${call.id}`, err as Error),
        );
    }
  }
}
