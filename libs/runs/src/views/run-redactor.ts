import { TOOL_CALL } from '@toolgate/agents';
import type { Redactor } from '@toolgate/audit';
import type { RunEvent, RunEventType, RunStep, RunView } from '@toolgate/contract';
import type { ToolLookup } from '@toolgate/tenancy';
import type { MarkedField } from '@toolgate/toolkit';

type Data = Record<string, unknown>;
type FieldPaths = readonly MarkedField[];

/**
 * What a run shows a reader who is not the run's own key (CONTRACT.md "Agent runs"), redacted the
 * way the audit trail stores inputs: the tenant's `Redactor` (schema-marked fields of each tool's
 * input and secret-looking keys sealed, values matching the tenant's patterns masked) over the
 * question, the answer, the model's text, each call's input and result, and the events carrying
 * them. Ids, statuses, tool names and usage are left as they are.
 */
export class RunRedactor {
  constructor(
    private readonly redactor: Redactor,
    /** The tenant's tools (registry and imported), for the schema-marked fields of each input. */
    private readonly tools: ToolLookup,
  ) {}

  view(v: RunView): RunView {
    return {
      ...v,
      input: this.text(v.input),
      output: v.output === null ? null : this.text(v.output),
      error: v.error === null ? null : (this.redactor.redact(v.error) as RunView['error']),
      steps: v.steps.map((s) => this.step(s)),
      redacted: true,
    };
  }

  /** An event as this reader sees it; null for one it does not get (`text_delta`). */
  event(e: RunEvent): RunEvent | null {
    const redact = EVENT_FIELDS[e.type];
    if (redact === null) return null;
    return { ...e, data: redact ? redact(this, e.data) : (this.redactor.redact(e.data) as Data) };
  }

  private step(s: RunStep): RunStep {
    return {
      ...s,
      text: s.text === null ? null : this.text(s.text),
      toolCalls: s.toolCalls.map((c) => ({
        ...c,
        input: this.input(c.tool, c.input),
        result: c.result === null ? null : (this.result(c.tool, c.result) as typeof c.result),
      })),
    };
  }

  text(value: unknown): string {
    return typeof value === 'string' ? this.redactor.redactText(value) : '';
  }

  /** What a tool's call showed the model, redacted like its result (names where the tool opted in). */
  toolText(tool: unknown, value: unknown): string {
    const names = typeof tool === 'string' ? (this.tools.get(tool)?.redactNames ?? false) : false;
    return typeof value === 'string' ? this.redactor.redactText(value, names) : '';
  }

  value(value: unknown): unknown {
    return this.redactor.redact(value);
  }

  /**
   * A call's input as the audit trail's `started` event would hold it: the tool's schema-marked
   * fields sealed; `tool_call {name, input}` with the named tool's fields under `input`.
   */
  input(tool: unknown, input: unknown): unknown {
    const name = typeof tool === 'string' ? tool : '';
    if (name === TOOL_CALL && input && typeof input === 'object') {
      const target = (input as { name?: unknown }).name;
      const paths = typeof target === 'string' ? this.pathsOf(target) : [];
      return this.redactor.redact(
        input,
        paths.map((p) => ({ path: ['input', ...p.path], piClass: p.piClass })),
      );
    }
    return this.redactor.redact(input, this.pathsOf(name), this.tools.get(name)?.redactNames ?? false);
  }

  /** A call's result envelope as the call record stores it: marked output fields, names where asked. */
  result(tool: unknown, envelope: unknown): unknown {
    const contract = typeof tool === 'string' ? this.tools.get(tool) : undefined;
    if (!contract || !envelope || typeof envelope !== 'object' || !('data' in envelope))
      return this.redactor.redact(envelope, [], contract?.redactNames ?? false);
    const e = envelope as Record<string, unknown>;
    return Object.assign({}, e, {
      data: this.redactor.redact(e.data, contract.outputSensitivePaths, contract.redactNames),
    });
  }

  private pathsOf(tool: string): FieldPaths {
    return this.tools.get(tool)?.sensitivePaths ?? [];
  }
}

/**
 * How each event type's `data` is redacted: its fields that carry the conversation or a call's
 * data. `null`: the event is not shown — a text delta is a fragment, and a value split across two
 * fragments could not be recognised; `model_finished` carries the turn's whole text, redacted.
 * `undefined` (a type added later and not listed): the whole data is redacted.
 */
const EVENT_FIELDS: Record<RunEventType, ((r: RunRedactor, d: Data) => Data) | null | undefined> = {
  run_started: (r, d) => ({ ...d, input: r.text(d.input) }),
  model_started: (_r, d) => d,
  model_finished: (r, d) => ({
    ...d,
    text: d.text === null || d.text === undefined ? d.text : r.text(d.text),
  }),
  text_delta: null,
  tool_call_requested: (r, d) => ({ ...d, input: r.input(d.tool, d.input), label: r.text(d.label) }),
  tool_partial: (r, d) => ({
    ...d,
    ...('partial' in d ? { partial: r.value(d.partial) } : {}),
    ...('label' in d ? { label: r.text(d.label) } : {}),
  }),
  tool_result: (r, d) => ({ ...d, result: r.result(d.tool, d.result) }),
  approval_requested: (_r, d) => d,
  approval_decided: (_r, d) => d,
  run_finished: (r, d) => ({
    ...d,
    output: d.output === null || d.output === undefined ? d.output : r.text(d.output),
    error: r.value(d.error),
  }),
};
