/**
 * The life of a tool, and the one type for each stage (docs/tools.md tells the same story):
 *
 * 1. **Declared** — a tool author writes
 *    - `ToolContract`: everything except the body, declared once (`defineToolContract`);
 *    - `ToolDefinition`: the contract plus `execute`, one per implementation
 *      (`contract.implement(body)` or `contract.implement('sap', body)`), what
 *      `ToolkitModule.forFeature` registers. `@Tool(declaration)` on a provider method is sugar
 *      for the same: the method is the body;
 *    - `ToolDeclaration`: the fields of a contract, what `@Tool(...)` and `defineToolContract` take.
 * 2. **Registered** — at boot the registry checks every declaration against the boot rules and keeps
 *    one `RegisteredContract` per tool name (compiled schemas, filled-in defaults, contract hash)
 *    holding one `ToolImplementation` per body (`sap`, `yonyou_nc`, `default`).
 * 3. **Bound** — a tenant's binding picks an implementation for an agent type and may tighten the
 *    policy: an `EffectiveTool` (contract + implementation + effective time limit and approval).
 * 4. **Executed** — each call of an `EffectiveTool` is a `ToolCall` in the executor's pipeline; the
 *    tool body sees its `ToolContext` (`ctx`), and the caller gets a `ToolCallResult`.
 *
 * Only the declared stage is written by hand; every later type picks its fields from
 * `ToolDeclaration` instead of listing them again.
 */
import type { ToolContext } from '../execution/tool-context.js';
import type { ApprovalConfig, ApprovalPolicy } from './approval-policy.js';

/**
 * A callback type checked bivariantly, so a definition typed for its own input and output still
 * fits in a list of `ToolDefinition<any, any>` (the same trick React's typings use).
 */
export type Callback<A extends unknown[], R> = { bivarianceHack(...args: A): R }['bivarianceHack'];

/** L0 read-only · L1 sensitive reads or small side effects · L2 reversible writes · L3 irreversible. */
import type { RiskLevel } from '@toolgate/contract/rules';
export { RISK_LEVELS, type RiskLevel } from '@toolgate/contract/rules';

/** The risk metadata every tool declares (docs/tool-design-rules.md §A1, the fifth mandatory attribute). */
export interface ToolRisk {
  readonly level: RiskLevel;
  /** Whether a call needs a person's approval. Implied by an `approval` policy other than never. */
  readonly approvalRequired?: boolean;
  /** The business data the tool touches, e.g. `['ops.logs']`, `['erp.purchasing']`. */
  readonly dataDomains?: readonly string[];
  /** What a normal call takes, for planners and dashboards. */
  readonly estimatedDurationMs?: number;
}

/** A Zod 4 schema (`import { z } from 'zod'`). */
export interface Zod4Schema<TOutput = unknown> {
  readonly _zod: { readonly output: TOutput };
}
/** A Zod 3-API schema (`import { z } from 'zod/v3'`). */
export interface Zod3Schema<TOutput = unknown> {
  readonly _output: TOutput;
  readonly _def: unknown;
}
/** A plain JSON Schema object; allowed as an input schema only on tools marked `dynamic`. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };
/** Any schema a tool may declare. */
export type ToolSchema = Zod4Schema | Zod3Schema | JsonSchemaObject;

/** The value type a schema validates to. */
export type InferSchema<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : Record<string, unknown>;

/** What the model sees instead of the raw output (docs/tool-design-rules.md §4.5). */
export type ToolModelOutput =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'json'; readonly value: unknown }
  | { readonly type: 'content'; readonly value: readonly ToolOutputPart[] };

/** A part of a content output. Files are base64 strings: raw buffers cannot cross the JSON boundary. */
export type ToolOutputPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'file'; readonly data: string; readonly mediaType: string };

/** Activity texts for people watching a call (not for the model). */
export interface ToolLabel<TInput, TOutput> {
  readonly start?: string | Callback<[input: TInput], string>;
  readonly delta?: Callback<[input: TInput, partial: TOutput], string>;
  readonly complete?: Callback<[input: TInput, output: TOutput], string>;
}

/** What `execute` may return: a value, a promise, or an async generator of whole snapshots. */
export type ToolResult<TOutput> = TOutput | Promise<TOutput> | AsyncIterable<TOutput>;

/**
 * Everything about a tool except its body: the contract that every implementation of the tool
 * shares. Field by field, the union of docs/tool-design-rules.md §A1 and §4.1.
 */
export interface ToolDeclaration<TInput = any, TOutput = any> {
  /** snake_case, unique; the name the model sees. */
  readonly name: string;
  /** For the model: what it does, what it returns, and when not to use it. */
  readonly description: string;
  /** Zod (either API). `z.object({})` when the tool takes nothing. JSON Schema only if `dynamic`. */
  readonly inputSchema: ToolSchema;
  /** Marks a tool whose input schema is a plain JSON Schema generated at run time. */
  readonly dynamic?: boolean;
  /** The shape of the result; checked after every call (`OUTPUT_INVALID`). */
  readonly outputSchema?: ToolSchema;
  readonly risk: ToolRisk;
  /** Time limit in ms: 10 000 by default, at most 30 000. */
  readonly timeoutMs?: number;
  /** `never()` (default), `once()`, `always()`, or `{ request, prompt }`. */
  readonly approval?: ApprovalPolicy | ApprovalConfig<TInput>;
  /** What `once()` remembers an approval by; the tool name when absent. */
  readonly approvalKey?: Callback<[input: TInput], string>;
  /** The model's projection of the output; REST clients still get the full output. */
  readonly toModelOutput?: Callback<[output: TOutput], ToolModelOutput>;
  /** A successful call ends the agent's turn. */
  readonly endsTurn?: boolean | Callback<[output: TOutput], boolean>;
  /** Kept out of tool lists; reachable through search. */
  readonly deferred?: boolean;
  /** False keeps the tool away from subagent sessions. Default true. */
  readonly availableInSubagents?: boolean;
  readonly label?: ToolLabel<TInput, TOutput>;
  /** Which implementation of the contract this is (`sap`, `yonyou_nc`); `default` when absent. */
  readonly implementation?: string;
  /**
   * Top-level input fields that name what a call acts on (its target), e.g. `['service']`. The
   * audit trail shows them as the call's target (`service=payment-api`) and lets auditors search
   * calls by their values; a sensitive field shows as redacted. Not part of the contract hash:
   * they change how calls are found, not what a call does.
   */
  readonly keyFields?: readonly string[];
  /**
   * Mask Chinese personal names (a listed surname and one or two more characters, standing alone)
   * wherever they appear in this tool's stored inputs and outputs, besides its marked fields
   * (ADR 036). For tools whose answers name people in fields no schema marks.
   */
  readonly redactNames?: boolean;
}

/** A declaration plus its body: what `contract.implement` returns and the registry stores. */
export interface ToolDefinition<TInput = any, TOutput = any> extends ToolDeclaration<TInput, TOutput> {
  readonly execute: Callback<[input: TInput, ctx: ToolContext], ToolResult<TOutput>>;
}
