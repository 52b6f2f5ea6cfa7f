import type { ToolContext } from '../execution/tool-context.js';
import type { ApprovalConfig, ApprovalPolicy } from './approval-policy.js';
import type {
  InferSchema,
  ToolDeclaration,
  ToolDefinition,
  ToolLabel,
  ToolModelOutput,
  ToolResult,
  ToolRisk,
  ToolSchema,
} from './tool-definition.js';

/** The typed spelling of a declaration: input and output types follow from the schemas. */
export interface TypedDeclaration<S extends ToolSchema, O> {
  name: string;
  description: string;
  inputSchema: S;
  dynamic?: boolean;
  outputSchema?: ToolSchema;
  risk: ToolRisk;
  timeoutMs?: number;
  approval?: ApprovalPolicy | ApprovalConfig<InferSchema<S>>;
  approvalKey?: (input: InferSchema<S>) => string;
  toModelOutput?: (output: O) => ToolModelOutput;
  endsTurn?: boolean | ((output: O) => boolean);
  deferred?: boolean;
  availableInSubagents?: boolean;
  label?: ToolLabel<InferSchema<S>, O>;
  implementation?: string;
}

/**
 * Defines a tool as an object, to be registered with `ToolkitModule.forFeature([...])`.
 * An identity function: it exists for type inference.
 * @example
 * export const getServiceStatus = defineTool({
 *   name: 'get_service_status',
 *   description: '查询某个服务当前的健康状态和实例数。',
 *   inputSchema: z.object({ service: z.string().min(1) }),
 *   risk: { level: 'L0' },
 *   async execute({ service }, ctx) { ... },
 * });
 */
export function defineTool<S extends ToolSchema, O>(
  definition: TypedDeclaration<S, O> & {
    execute(input: InferSchema<S>, ctx: ToolContext): ToolResult<O>;
  },
): ToolDefinition<InferSchema<S>, O> {
  return definition as ToolDefinition<InferSchema<S>, O>;
}

/**
 * A contract with more than one implementation. Implementations are `@Tool(contract.forImplementation('sap'))`
 * methods or `contract.implement('sap', execute)` objects; every implementation shares the contract.
 */
export interface ToolContract<I, O> extends Omit<ToolDeclaration<I, O>, 'implementation'> {
  /** The declaration of one named implementation, for `@Tool(...)`. */
  forImplementation(name: string): ToolDeclaration<I, O>;
  /** A full definition of one named implementation, for `ToolkitModule.forFeature([...])`. */
  implement(name: string, execute: (input: I, ctx: ToolContext) => ToolResult<O>): ToolDefinition<I, O>;
}

/**
 * Declares a tool contract once: name, description, schemas, risk, policies.
 * @example
 * export const querySupplierDelivery = defineToolContract({ name: 'query_supplier_delivery', ... });
 * // in a provider:
 * @Tool(querySupplierDelivery.forImplementation('sap')) async query(input, ctx) { ... }
 */
export function defineToolContract<S extends ToolSchema, O = unknown>(
  declaration: TypedDeclaration<S, O>,
): ToolContract<InferSchema<S>, O> {
  const { implementation: _ignored, ...rest } = declaration;
  const base = rest as ToolDeclaration<InferSchema<S>, O>;
  return Object.freeze({
    ...base,
    forImplementation: (name: string) => Object.freeze({ ...base, implementation: name }),
    implement: (name: string, execute: (input: InferSchema<S>, ctx: ToolContext) => ToolResult<O>) =>
      Object.freeze({ ...base, implementation: name, execute }),
  });
}
