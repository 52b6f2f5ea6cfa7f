import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CallRecordsSink } from '@toolgate/calls';
import { InstanceRegistry, StatementRefusedError } from '@toolgate/database';
import {
  ErrorCode,
  errorEnvelope,
  HookOrder,
  ToolCallHookProvider,
  type LateOutcome,
  type ToolCall,
  type ToolCallHook,
  type ToolCallResult,
  type ToolCallStop,
} from '@toolgate/toolkit';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { PLATFORM_TENANT } from '../audit-event.js';
import { AuditWriter } from '../chain/audit-writer.js';
import { TenantRedaction } from '../redaction/tenant-redaction.js';
import type { Redactor } from '../redaction/redactor.js';
import { CallEventFactory } from './call-event-factory.js';
import { L0AccessSwitch } from './l0-access-switch.js';
import { bothSidecars } from './call-record-sink.js';

const STARTED = Symbol('audit.started');
const FACTORY = Symbol('audit.factory');

/**
 * Audit as a framework duty (docs/tool-design-rules.md §A5): every L1+ call is recorded before and after it runs,
 * without a line of audit code in any tool. Fails closed: if `started` cannot be made durable in
 * time, the tool does not run and the caller gets AUDIT_UNAVAILABLE.
 */
@Injectable()
@ToolCallHookProvider({ order: HookOrder.AUDIT })
export class AuditHook implements ToolCallHook {
  private readonly logger = new Logger('Audit');
  /** One event factory per tenant redactor for L0 access records (not one per call). */
  private readonly accessFactories = new WeakMap<Redactor, CallEventFactory>();

  constructor(
    private readonly writer: AuditWriter,
    private readonly redaction: TenantRedaction,
    private readonly instances: InstanceRegistry,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
    private readonly l0Access: L0AccessSwitch,
    // The calls lib's records move in the same transaction as the events that tell their story;
    // optional so that the trail works without call records (the audit lib's own specs).
    @Optional() private readonly records?: CallRecordsSink,
  ) {}

  private audited(call: ToolCall): boolean {
    return call.tool.contract.risk.level !== 'L0' || this.options.auditL0;
  }

  private async factory(call: ToolCall): Promise<CallEventFactory> {
    let f = call.state.get(FACTORY) as CallEventFactory | undefined;
    if (!f) {
      f = new CallEventFactory(
        await this.redaction.redactorFor(call.request.tenant?.id ?? PLATFORM_TENANT),
        this.instances.instanceId,
      );
      call.state.set(FACTORY, f);
    }
    return f;
  }

  private deadline(call: ToolCall): number {
    return Math.min(this.options.writeDeadlineMs, call.tool.timeoutMs);
  }

  // Not async on purpose: an L0 call that is not audited must not pay for a promise.
  beforeExecute(call: ToolCall): Promise<ToolCallStop | undefined> | undefined {
    return this.audited(call) ? this.start(call) : undefined;
  }

  afterCall(call: ToolCall, result: ToolCallResult): Promise<void> | undefined {
    if (this.audited(call)) return this.finish(call, result);
    this.recordAccess(call, result);
    return undefined;
  }

  /**
   * An L0 call not audited in full is still on the trail (issue 23): one `accessed` event after it
   * ran, handed to the writer's group commit and never waited for — the answer does not pay for
   * the trail, and a write that fails is retried like every closing event. Synchronous when the
   * tenant's switch and redactor are known (the L0 path has no promise, ADR 022).
   */
  private recordAccess(call: ToolCall, result: ToolCallResult): void {
    const tenantId = call.request.tenant?.id ?? PLATFORM_TENANT;
    const on = this.l0Access.recordsFor(tenantId);
    if (on === false) return;
    const redactor = this.redaction.redactorNow(tenantId);
    if (on === true && !(redactor instanceof Promise)) return this.writeAccess(call, result, redactor);
    void Promise.all([on, redactor]).then(
      ([yes, r]) => (yes ? this.writeAccess(call, result, r) : undefined),
      (err: Error) => this.logger.error(`cannot record the L0 call ${call.id}: ${err.message}`),
    );
  }

  private writeAccess(call: ToolCall, result: ToolCallResult, redactor: Redactor): void {
    let factory = this.accessFactories.get(redactor);
    if (!factory) {
      factory = new CallEventFactory(redactor, this.instances.instanceId);
      this.accessFactories.set(redactor, factory);
    }
    try {
      this.writer.ensure([factory.accessed(call, result)]);
    } catch (err) {
      this.logger.error(`cannot record the L0 call ${call.id}: ${(err as Error).message}`);
    }
  }

  onLateCompletion(call: ToolCall, outcome: LateOutcome): Promise<void> | undefined {
    return this.audited(call) && call.state.get(STARTED) ? this.late(call, outcome) : undefined;
  }

  private async start(call: ToolCall): Promise<ToolCallStop | undefined> {
    let events: CallEventFactory | undefined;
    try {
      events = await this.factory(call);
      const [outcome] = await this.writer.append([events.started(call, true)], this.deadline(call), {
        sidecar: this.records?.started(call),
      });
      if (outcome !== 'written') {
        // The trail already holds a start under this call's key: this run would leave no trace
        // of its own. Nothing runs unaudited, and the other call's record is not ours to close.
        this.logger.error(`${call.tool.contract.name} (${call.id}) not run: its started event was refused`);
        return { envelope: errorEnvelope(ErrorCode.AUDIT_UNAVAILABLE, call.request.locale) };
      }
      call.state.set(STARTED, true);
      return undefined;
    } catch (err) {
      // An approved call another gateway claimed first (its `started` carries the claim, guarded):
      // nothing was written and nothing runs here; the other gateway's run is the call's (ADR 049).
      if (err instanceof StatementRefusedError) {
        return {
          envelope: errorEnvelope(ErrorCode.ALREADY_EXISTS, call.request.locale, {
            resource: `a run of call ${call.id}`,
          }),
        };
      }
      // The start may still commit later; a conditional not_executed closes it if it does.
      if (events)
        this.writer.ensure([events.notExecuted(call, (err as Error).message)], {
          sidecar: this.records?.notExecuted(call),
        });
      this.logger.warn(`${call.tool.contract.name} (${call.id}) not run: ${(err as Error).message}`);
      return { envelope: errorEnvelope(ErrorCode.AUDIT_UNAVAILABLE, call.request.locale) };
    }
  }

  private async finish(call: ToolCall, result: ToolCallResult): Promise<void> {
    let drafts;
    let sidecar;
    try {
      const events = await this.factory(call);
      if (call.state.get(STARTED)) {
        drafts = [events.finished(call, result)];
        sidecar = this.records?.finished(call, result, events.storedEnvelope(call, result));
      } else if (result.stage === 'invalid') {
        drafts = [events.started(call, false), events.finished(call, result)];
        sidecar = bothSidecars(
          this.records?.started(call),
          this.records?.finished(call, result, events.storedEnvelope(call, result)),
        );
      } else return; // parked for approval, or refused before audit: other events tell that story
    } catch (err) {
      this.logger.error(`cannot record the outcome of ${call.id}: ${(err as Error).message}`);
      return;
    }
    if (this.options.finishedBeforeAnswer === false && drafts.length === 1) {
      // `started` was durable before the tool ran (fail-closed, ADR 004): the answer may leave
      // while `finished` waits for its group commit, retried until stored (ADR 043). Only when
      // said: options built without the field keep the durable answer.
      this.writer.ensure(drafts, { sidecar });
      return;
    }
    try {
      await this.writer.append(drafts, this.deadline(call), { sidecar });
    } catch {
      // The tool has run: its outcome must reach the trail. Retried until the store takes it.
      this.writer.ensure(drafts, { sidecar });
    }
  }

  private async late(call: ToolCall, outcome: LateOutcome): Promise<void> {
    this.writer.ensure([(await this.factory(call)).late(call, outcome)]);
  }
}
