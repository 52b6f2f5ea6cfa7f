import { defineToolContract, type ToolContract } from './define-tool-contract.js';
import type { ToolDeclaration, ToolDefinition } from './tool-definition.js';

const TOOL_METHOD = Symbol('toolgate:tool-method');

/** What `@Tool` records about a method. */
export interface ToolMethodMetadata {
  readonly contract: ToolContract<any, any>;
  /** Which implementation of the contract the method is; `default` when absent. */
  readonly implementation: string | undefined;
  /** The method body as written; only the executor calls it. */
  readonly original: (...args: any[]) => unknown;
}

/**
 * The tool a decorated method of `instance` defines: exactly `contract.implement(method)` — what
 * `@Tool` is sugar for.
 */
export function methodToolDefinition(meta: ToolMethodMetadata, instance: object): ToolDefinition {
  const body = meta.original.bind(instance);
  return meta.implementation === undefined
    ? meta.contract.implement(body)
    : meta.contract.implement(meta.implementation, body);
}

/** Runs a governed call for one decorated method of one instance. */
export type GovernedInvoker = (input: unknown, callerCtx?: unknown) => Promise<unknown>;

// Which instances the explorer has put under governance, and how to call their tools.
const governed = new WeakMap<object, Map<string | symbol, GovernedInvoker>>();

/** Raised when a `@Tool` method is called on an instance no toolkit has registered. */
export class UngovernedToolCallError extends Error {
  constructor(className: string, method: string) {
    super(
      `${className}.${method} is a @Tool and can only run through the ToolExecutor; ` +
        'resolve the provider from a Nest module that imports ToolkitModule instead of constructing it',
    );
    this.name = 'UngovernedToolCallError';
  }
}

/**
 * Makes a provider method a tool: sugar for `defineToolContract(declaration).implement(method)`,
 * found at boot on the providers of the app. Takes a declaration, a contract
 * (`@Tool(getServiceStatusContract)`) or one implementation of it
 * (`@Tool(contract.forImplementation('sap'))`). The decorator replaces the method: a direct call from other code
 * in the process goes through the same pipeline as a REST call — validation, approval, audit, time
 * limit. A tool body passes its own `ctx` so the nested call acts for the same caller
 * (`await this.getServiceStatus({ service }, ctx)`); code outside any call omits it and acts as
 * `system`. It resolves to the tool's data, or rejects with ToolCallFailedError.
 * @example
 * @Tool({ name: 'get_service_status', description: '...', inputSchema: z.object({ service: z.string() }), risk: { level: 'L0' } })
 * async getServiceStatus(input: { service: string }, ctx: ToolContext) { ... }
 */
export function Tool(declaration: ToolDeclaration | ToolContract<any, any>): MethodDecorator {
  const contract: ToolContract<any, any> = isContract(declaration)
    ? declaration
    : defineToolContract(declaration as ToolDeclaration);
  const implementation = (declaration as ToolDeclaration).implementation;
  return (_target, propertyKey, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as ((...args: any[]) => unknown) | undefined;
    if (typeof original !== 'function') {
      throw new TypeError(`@Tool can only decorate methods (${String(propertyKey)})`);
    }
    const governedMethod = function (this: object, input: unknown, callerCtx?: unknown): Promise<unknown> {
      const invoke = governed.get(this)?.get(propertyKey);
      if (!invoke) {
        return Promise.reject(
          new UngovernedToolCallError(this?.constructor?.name ?? 'object', String(propertyKey)),
        );
      }
      return invoke(input, callerCtx);
    };
    Object.defineProperty(governedMethod, 'name', { value: original.name });
    Reflect.defineMetadata(
      TOOL_METHOD,
      { contract, implementation, original } satisfies ToolMethodMetadata,
      governedMethod,
    );
    descriptor.value = governedMethod;
    return descriptor;
  };
}

function isContract(value: ToolDeclaration | ToolContract<any, any>): value is ToolContract<any, any> {
  return typeof (value as Partial<ToolContract<any, any>>).implement === 'function';
}

/** The `@Tool` metadata of a method, if it has any. */
export function getToolMethodMetadata(method: unknown): ToolMethodMetadata | undefined {
  return typeof method === 'function'
    ? (Reflect.getMetadata(TOOL_METHOD, method) as ToolMethodMetadata | undefined)
    : undefined;
}

/** Connects an instance's decorated method to the executor. Called by the explorer only. */
export function governInstanceMethod(
  instance: object,
  method: string | symbol,
  invoke: GovernedInvoker,
): void {
  let methods = governed.get(instance);
  if (!methods) governed.set(instance, (methods = new Map()));
  methods.set(method, invoke);
}
