import { Injectable } from '@nestjs/common';
import { TenantRedaction } from '@toolgate/audit';
import type { RunEvent, RunView } from '@toolgate/contract';
import { BindingResolver } from '@toolgate/tenancy';
import type { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunRedactor } from './run-redactor.js';

/** Who reads: a principal id is unique across keys (`key_…`) and people (`<provider>:<subject>`). */
interface Reader {
  readonly principalId: string;
}

/** What one reader is shown of the runs it may read (RunService decides which those are). */
export interface RunViewer {
  view(run: AgentRunEntity, view: RunView): Promise<RunView>;
  /** How the run's stored events reach this reader: as they are, redacted, or not at all (null). */
  events(run: AgentRunEntity): Promise<(event: RunEvent) => RunEvent | null>;
}

const asIs = (event: RunEvent) => event;

/**
 * What each reader sees of a run (CONTRACT.md "Agent runs"): the key that started it reads it as
 * it is while it goes on — its agent program goes on from the results, as its model does — and as
 * stored once it ended, redacted (ADR 036); every other reader
 * (the tenant's admins and auditors, platform admins) reads it redacted like audit inputs: the
 * same tenant redactor, the same schema-marked fields, so a value masked in the trail is masked here.
 */
@Injectable()
export class RunReaders {
  constructor(
    private readonly redaction: TenantRedaction,
    private readonly tools: BindingResolver,
  ) {}

  /** Whether `reader` is the run's own key (a sub-agent's run acts for its parent's key). */
  static ownRun(reader: Reader, run: Pick<AgentRunEntity, 'principalId'>): boolean {
    return reader.principalId === run.principalId;
  }

  /** A viewer for one request: the tenants' redactors are made once for all the runs it shows. */
  viewer(reader: Reader): RunViewer {
    const redactors = new Map<string, Promise<RunRedactor>>();
    const redactorOf = (tenantId: string) => {
      let r = redactors.get(tenantId);
      if (!r) redactors.set(tenantId, (r = this.redactorFor(tenantId)));
      return r;
    };
    return {
      // A run that ended is stored redacted (ADR 036): its own key reads that, and is told so.
      view: async (run, view) =>
        RunReaders.ownRun(reader, run)
          ? run.finishedAt
            ? { ...view, redacted: true }
            : view
          : (await redactorOf(run.tenantId)).view(view),
      events: async (run) => {
        if (RunReaders.ownRun(reader, run)) return asIs;
        const redactor = await redactorOf(run.tenantId);
        return (event) => redactor.event(event);
      },
    };
  }

  private async redactorFor(tenantId: string): Promise<RunRedactor> {
    const [redactor, tools] = await Promise.all([
      this.redaction.redactorFor(tenantId),
      this.tools.lookupFor(tenantId),
    ]);
    return new RunRedactor(redactor, tools);
  }
}
