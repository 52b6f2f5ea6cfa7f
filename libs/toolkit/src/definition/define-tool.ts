import type { InferSchema, ToolDeclaration, ToolDefinition, ToolSchema } from './tool-definition.js';

/**
 * `T` with its input type following from the schema it declares: `defineTool` and
 * `defineToolContract` infer the input from `inputSchema` instead of asking for it.
 */
type WithInputSchema<T, S extends ToolSchema> = Omit<T, 'inputSchema'> & { readonly inputSchema: S };

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
  definition: WithInputSchema<ToolDefinition<InferSchema<S>, O>, S>,
): ToolDefinition<InferSchema<S>, O> {
  return definition;
}

/**
 * A contract with more than one implementation. Implementations are `@Tool(contract.forImplementation('sap'))`
 * methods or `contract.implement('sap', execute)` objects; every implementation shares the contract.
 */
export interface ToolContract<I, O> extends Omit<ToolDeclaration<I, O>, 'implementation'> {
  /** The declaration of one named implementation, for `@Tool(...)`. */
  forImplementation(name: string): ToolDeclaration<I, O>;
  /** A full definition of one named implementation, for `ToolkitModule.forFeature([...])`. */
  implement(name: string, execute: ToolDefinition<I, O>['execute']): ToolDefinition<I, O>;
}

/**
 * Declares a tool contract once: name, description, schemas, risk, policies.
 * @example
 * export const querySupplierDelivery = defineToolContract({ name: 'query_supplier_delivery', ... });
 * // in a provider:
 * @Tool(querySupplierDelivery.forImplementation('sap')) async query(input, ctx) { ... }
 */
export function defineToolContract<S extends ToolSchema, O = unknown>(
  declaration: WithInputSchema<ToolDeclaration<InferSchema<S>, O>, S>,
): ToolContract<InferSchema<S>, O> {
  const { implementation: _ignored, ...base } = declaration;
  return Object.freeze({
    ...base,
    forImplementation: (name: string) => Object.freeze({ ...base, implementation: name }),
    implement: (name: string, execute: ToolDefinition<InferSchema<S>, O>['execute']) =>
      Object.freeze({ ...base, implementation: name, execute }),
  });
}
