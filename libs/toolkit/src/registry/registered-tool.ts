import type { ApprovalMode } from '../definition/approval-policy.js';
import type {
  RiskLevel,
  ToolDeclaration,
  ToolLabel,
  ToolModelOutput,
  ToolResult,
} from '../definition/tool-definition.js';
import type { ToolContext } from '../execution/tool-context.js';
import type { CompiledSchema } from '../schema/compiled-schema.js';

/** Risk metadata with every field filled in. */
export interface NormalizedRisk {
  readonly level: RiskLevel;
  readonly approvalRequired: boolean;
  readonly dataDomains: readonly string[];
  readonly estimatedDurationMs?: number;
}

/** One body of a contract. */
export interface ToolImplementation {
  readonly name: string;
  /** Where it was defined, for boot messages: `OpsTools.getServiceStatus` or `defineTool`. */
  readonly source: string;
  readonly execute: (input: any, ctx: ToolContext) => ToolResult<unknown>;
  /** Hash of the contract plus the implementation name, for the audit trail. */
  readonly definitionHash: string;
}

/**
 * A validated tool contract with compiled schemas and its implementations: what the executor runs
 * and the exporters describe.
 */
export interface RegisteredTool {
  readonly name: string;
  readonly description: string;
  readonly input: CompiledSchema;
  readonly output?: CompiledSchema;
  readonly dynamic: boolean;
  readonly risk: NormalizedRisk;
  readonly timeoutMs: number;
  readonly approval: { readonly mode: ApprovalMode; readonly prompt?: (args: { input: any }) => string };
  readonly approvalKey?: (input: any) => string;
  readonly toModelOutput?: (output: any) => ToolModelOutput;
  readonly endsTurn: boolean | ((output: any) => boolean);
  readonly deferred: boolean;
  readonly availableInSubagents: boolean;
  readonly label?: ToolLabel<any, any>;
  /** Input fields marked `sensitive()`: never stored in clear by the audit trail. */
  readonly sensitivePaths: readonly (readonly string[])[];
  /** SHA-256 over the contract: description, schemas, risk and policies. */
  readonly contractHash: string;
  readonly implementations: ReadonlyMap<string, ToolImplementation>;
  /** The declaration as written, for exports that need the original. */
  readonly declaration: ToolDeclaration;
}
