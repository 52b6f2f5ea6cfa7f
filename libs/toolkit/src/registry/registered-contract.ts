import type { ApprovalConfig, ApprovalMode } from '../definition/approval-policy.js';
import type { MarkedField, PiClass } from '../definition/sensitive.js';
import type { ToolDeclaration, ToolDefinition, ToolRisk } from '../definition/tool-definition.js';
import type { CompiledSchema } from '../schema/compiled-schema.js';

/** Risk metadata with every field filled in (a duration has no sensible default: it stays optional). */
export type NormalizedRisk = Required<Omit<ToolRisk, 'estimatedDurationMs'>> &
  Pick<ToolRisk, 'estimatedDurationMs'>;

/** One body of a contract (`sap`, `yonyou_nc`, or `default` when a tool has only one). */
export interface ToolImplementation extends Pick<ToolDefinition, 'execute'> {
  readonly name: string;
  /** Where it was defined, for boot messages: `OpsTools.getServiceStatus` or `forFeature in OpsToolsModule`. */
  readonly source: string;
  /** Hash of the contract plus the implementation name, for the audit trail. */
  readonly definitionHash: string;
  /**
   * Where this implementation sends a call's input, when that is a system outside the gateway the
   * implementation itself stands for (an imported upstream): its name and declared region (ISO
   * 3166-1 alpha-2, null when not declared). The cross-border guard reads it (ADR 047).
   */
  readonly recipient?: ImplementationRecipient;
}

/** The outside system an implementation sends to, with its declared region. */
export interface ImplementationRecipient {
  readonly name: string;
  readonly region: string | null;
}

/** Declaration fields the registry keeps as written. */
type KeptAsDeclared = 'name' | 'description' | 'approvalKey' | 'toModelOutput' | 'label';
/** Declaration fields the registry fills with their defaults when absent. */
type FilledIn = 'dynamic' | 'timeoutMs' | 'endsTurn' | 'deferred' | 'availableInSubagents';

/**
 * A tool contract that passed the boot rules (stage 2 of the lifecycle in tool-definition.ts):
 * schemas compiled, defaults filled in, and the implementations registered under it. What the
 * executor runs, bindings pick from, and the exporters describe.
 */
export interface RegisteredContract
  extends Pick<ToolDeclaration, KeptAsDeclared>, Required<Pick<ToolDeclaration, FilledIn>> {
  readonly input: CompiledSchema;
  readonly output?: CompiledSchema;
  readonly risk: NormalizedRisk;
  /** The policy's mode, `never` when none was declared, with the approver's prompt if any. */
  readonly approval: { readonly mode: ApprovalMode } & Pick<ApprovalConfig<any>, 'prompt'>;
  /** Input fields marked `sensitive()`, with their class: never stored in clear (ADR 036). */
  readonly sensitivePaths: readonly MarkedField[];
  /** Output fields marked `sensitive()`, with their class: results are stored redacted by them. */
  readonly outputSensitivePaths: readonly MarkedField[];
  /** The personal-information classes the tool's input or output touches (the catalog shows them). */
  readonly piClasses: readonly PiClass[];
  /** Chinese personal names masked in stored inputs and outputs besides marked fields. */
  readonly redactNames: boolean;
  /** Input fields naming a call's target (`keyFields`), `[]` when none were declared. */
  readonly keyFields: readonly string[];
  /** SHA-256 over the contract: description, schemas, risk and policies. */
  readonly contractHash: string;
  readonly implementations: ReadonlyMap<string, ToolImplementation>;
  /** The declaration as written, for exports that need the original. */
  readonly declaration: ToolDeclaration;
}
