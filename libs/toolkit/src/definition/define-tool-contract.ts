import type { ToolContext } from '../execution/tool-context.js';
import type {
  Callback,
  InferSchema,
  ToolDeclaration,
  ToolDefinition,
  ToolResult,
  ToolSchema,
} from './tool-definition.js';

/**
 * `T` with its input type following from the schema it declares: `defineToolContract` infers the
 * input from `inputSchema` instead of asking for it.
 */
type WithInputSchema<T, S extends ToolSchema> = Omit<T, 'inputSchema'> & { readonly inputSchema: S };

/** A tool body for input `I` whose output is `R`: a value, a promise, or an async generator of snapshots. */
export type ToolBody<I, R> = Callback<[input: I, ctx: ToolContext], ToolResult<R>>;

/**
 * A tool's contract, declared once: everything but the body. `implement` gives it a body (one per
 * implementation: `default`, or `sap`, `yonyou_nc`...); `@Tool` is the same thing written on a
 * provider method.
 */
export interface ToolContract<I, O> extends Omit<ToolDeclaration<I, O>, 'implementation'> {
  /**
   * The tool with its body, for `ToolkitModule.forFeature([...])`: the `default` implementation,
   * or the one named (a tenant's binding picks among several). The output type follows the body,
   * within the contract's.
   */
  implement<R extends O>(execute: ToolBody<I, R>): ToolDefinition<I, R>;
  implement<R extends O>(name: string, execute: ToolBody<I, R>): ToolDefinition<I, R>;
  /** The declaration of one named implementation, for `@Tool(contract.forImplementation('sap'))`. */
  forImplementation(name: string): ToolDeclaration<I, O>;
}

/**
 * Declares a tool: name, description, schemas, risk, policies — then `.implement(body)`. The one
 * way to define a tool (`@Tool` is sugar for it on a provider method). The input type follows from
 * `inputSchema`, the output type from `outputSchema` when there is one (or the second type
 * argument).
 * @example
 * export const getServiceStatus = defineToolContract({
 *   name: 'get_service_status',
 *   description: '查询某个服务当前的健康状态和实例数。',
 *   inputSchema: z.object({ service: z.string().min(1) }),
 *   outputSchema: serviceStatusOutput,
 *   risk: { level: 'L0' },
 * }).implement(async ({ service }, ctx) => ctx.connector(opsApiConnector).getService(service, ctx.abortSignal));
 * // registered by its pack: ToolkitModule.forFeature([getServiceStatus], { source: 'OpsToolsModule' })
 */
export function defineToolContract<S extends ToolSchema, OS extends ToolSchema>(
  declaration: WithInputSchema<ToolDeclaration<InferSchema<S>, InferSchema<OS>>, S> & {
    readonly outputSchema: OS;
  },
): ToolContract<InferSchema<S>, InferSchema<OS>>;
export function defineToolContract<S extends ToolSchema, O = unknown>(
  declaration: WithInputSchema<ToolDeclaration<InferSchema<S>, O>, S>,
): ToolContract<InferSchema<S>, O>;
export function defineToolContract(declaration: ToolDeclaration): ToolContract<unknown, unknown> {
  const { implementation: _ignored, ...base } = declaration;
  return Object.freeze({
    ...base,
    forImplementation: (name: string) => Object.freeze({ ...base, implementation: name }),
    implement: (nameOrBody: string | ToolBody<unknown, unknown>, body?: ToolBody<unknown, unknown>) =>
      typeof nameOrBody === 'string'
        ? Object.freeze({ ...base, implementation: nameOrBody, execute: body! })
        : Object.freeze({ ...base, execute: nameOrBody }),
  });
}
