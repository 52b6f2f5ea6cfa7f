import type { ToolDeclaration } from './tool-definition.js';

const TOOL_METHOD = Symbol('toolgate:tool-method');

/** What `@Tool` records about a method. */
export interface ToolMethodMetadata {
  readonly declaration: ToolDeclaration;
  /** The method body as written; only the executor calls it. */
  readonly original: (...args: any[]) => unknown;
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
 * Makes a provider method a tool. The decorator replaces the method: a direct call from other code
 * in the process goes through the same pipeline as a REST call — validation, approval, audit, time
 * limit. A tool body passes its own `ctx` so the nested call acts for the same caller
 * (`await this.getServiceStatus({ service }, ctx)`); code outside any call omits it and acts as
 * `system`. It resolves to the tool's data, or rejects with ToolCallFailedError.
 * @example
 * @Tool({ name: 'get_service_status', description: '...', inputSchema: z.object({ service: z.string() }), risk: { level: 'L0' } })
 * async getServiceStatus(input: { service: string }, ctx: ToolContext) { ... }
 */
export function Tool(declaration: ToolDeclaration): MethodDecorator {
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
      { declaration, original } satisfies ToolMethodMetadata,
      governedMethod,
    );
    descriptor.value = governedMethod;
    return descriptor;
  };
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
