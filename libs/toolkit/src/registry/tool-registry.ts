import { Injectable } from '@nestjs/common';
import { DEFAULT_IMPLEMENTATION, TOOL_NAME_PATTERN } from '../constants.js';
import type { ToolDeclaration, ToolDefinition } from '../definition/tool-definition.js';
import { ToolDefinitionError } from '../errors/toolgate-error.js';
import { sha256Hex } from '../util/canonical-json.js';
import { checkContract } from './definition-rules.js';
import type { RegisteredContract, ToolImplementation } from './registered-contract.js';

interface MutableEntry {
  contract: Omit<RegisteredContract, 'implementations'>;
  implementations: Map<string, ToolImplementation>;
  firstSource: string;
}

/**
 * Every tool contract of the process and its implementations. Filled at boot by the explorer,
 * then sealed: a bad definition fails the boot with one message naming each tool and rule.
 */
@Injectable()
export class ToolRegistry {
  private readonly entries = new Map<string, MutableEntry>();
  private readonly problems: string[] = [];
  private sealed = false;
  private frozen: ReadonlyMap<string, RegisteredContract> = new Map();

  /**
   * Adds one implementation. `source` names where it came from, for boot messages.
   * Returns the implementation, or undefined when the definition was refused.
   */
  register(definition: ToolDefinition, source: string): ToolImplementation | undefined {
    if (this.sealed)
      throw new Error(`ToolRegistry is sealed; cannot register ${definition?.name} from ${source}`);
    const label = this.label(definition, source);
    if (typeof definition?.execute !== 'function') {
      this.problems.push(`${label}: execute must be a function`);
      return undefined;
    }
    return this.add(definition, definition.execute, source);
  }

  private label(decl: ToolDeclaration | undefined, source: string): string {
    const name = typeof decl?.name === 'string' && decl.name ? decl.name : '(unnamed)';
    const impl =
      decl?.implementation && decl.implementation !== DEFAULT_IMPLEMENTATION ? `/${decl.implementation}` : '';
    return `tool "${name}${impl}" (${source})`;
  }

  private add(
    decl: ToolDeclaration,
    execute: ToolImplementation['execute'],
    source: string,
  ): ToolImplementation | undefined {
    const label = this.label(decl, source);
    const checked = checkContract(decl);
    if (!checked.ok) {
      for (const p of checked.problems) this.problems.push(`${label}: ${p}`);
      return undefined;
    }
    const implName = decl.implementation ?? DEFAULT_IMPLEMENTATION;
    if (!TOOL_NAME_PATTERN.test(implName)) {
      this.problems.push(`${label}: implementation name must be snake_case, got "${implName}"`);
      return undefined;
    }
    const contract = checked.contract;
    let entry = this.entries.get(contract.name);
    if (!entry) {
      entry = { contract, implementations: new Map(), firstSource: source };
      this.entries.set(contract.name, entry);
    } else if (entry.contract.contractHash !== contract.contractHash) {
      this.problems.push(
        `${label}: declares a different contract than ${entry.firstSource}; implementations of one tool must share name, description, schemas, risk and policies`,
      );
      return undefined;
    }
    if (entry.implementations.has(implName)) {
      this.problems.push(
        `${label}: duplicated — ${entry.implementations.get(implName)!.source} already registers "${contract.name}" with implementation "${implName}"`,
      );
      return undefined;
    }
    const impl: ToolImplementation = {
      name: implName,
      source,
      execute,
      definitionHash: sha256Hex(`${contract.contractHash}:${implName}`),
    };
    entry.implementations.set(implName, impl);
    return impl;
  }

  /** Records a problem found outside the registry (e.g. by the explorer); reported at seal time. */
  reportProblem(problem: string): void {
    this.problems.push(problem);
  }

  /** Ends registration. Throws ToolDefinitionError listing every problem found. */
  seal(): void {
    if (this.sealed) return;
    if (this.problems.length) throw new ToolDefinitionError(this.problems);
    const frozen = new Map<string, RegisteredContract>();
    for (const [name, e] of [...this.entries].sort(([a], [b]) => a.localeCompare(b))) {
      frozen.set(name, Object.freeze({ ...e.contract, implementations: e.implementations }));
    }
    this.frozen = frozen;
    this.sealed = true;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  /** A contract by name. */
  get(name: string): RegisteredContract | undefined {
    return this.frozen.get(name);
  }

  /** Every contract, sorted by name. */
  list(): RegisteredContract[] {
    return [...this.frozen.values()];
  }
}
