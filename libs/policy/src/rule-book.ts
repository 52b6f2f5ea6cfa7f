import { Injectable, Logger } from '@nestjs/common';
import type { ToolRule } from '@toolgate/contract/rules';
import { compileRule, RuleCompileError, type CompiledRule } from './rule-compiler.js';

/** Compiled rule lists kept at once; past it the oldest is dropped (recompiled when used again). */
const MAX_CACHED = 5_000;

/** One cached list: the rules as read (by reference and text) and compiled. */
interface Compiled {
  source: readonly ToolRule[];
  readonly text: string;
  readonly rules: readonly CompiledRule[];
}

/** Where a rule list comes from: the tenant, agent type, binding version and tool it is bound to. */
export interface RuleSource {
  readonly tenantId: string;
  readonly agentType: string;
  readonly bindingVersion: number | null;
  readonly tool: string;
}

/**
 * The tenants' rules compiled once per binding version (ADR 041): a saved binding is a new
 * version, so a key is not invalidated, only checked; tenants are apart in every key. A rule that no
 * longer compiles (saved under an older CEL library) is kept as one that always fails: its calls
 * are refused, never run unchecked.
 */
@Injectable()
export class RuleBook {
  private readonly logger = new Logger('Rules');
  private readonly compiled = new Map<string, Compiled>();
  /**
   * The same lists by identity, with the source they were compiled for: a binding snapshot hands
   * every call the same array, so the hot path compares four fields instead of building the key
   * (tenants stay apart: another source misses and goes through the key).
   */
  private readonly byList = new WeakMap<
    readonly ToolRule[],
    { source: RuleSource; rules: readonly CompiledRule[] }
  >();

  /** The compiled rules of one bound tool, in written order. */
  rulesOf(source: RuleSource, rules: readonly ToolRule[]): readonly CompiledRule[] {
    // An unversioned binding (in-process calls) has no stable key: compiled each time.
    if (source.bindingVersion === null) return rules.map((r) => this.compile(source, r));
    const same = this.byList.get(rules);
    if (same && sameSource(same.source, source)) return same.rules;
    const key = `${source.tenantId}\u0000${source.agentType}\u0000${source.bindingVersion}\u0000${source.tool}`;
    const hit = this.compiled.get(key);
    if (hit && hit.source === rules) return this.remember(rules, source, hit.rules);
    // The same version read again (a refreshed snapshot) has the same text; a tenant made again
    // under the same id could reuse a version number with other rules: compared, never trusted.
    const text = JSON.stringify(rules);
    if (hit && hit.text === text) {
      hit.source = rules;
      return this.remember(rules, source, hit.rules);
    }
    const compiled = rules.map((r) => this.compile(source, r));
    if (!hit && this.compiled.size >= MAX_CACHED) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, { source: rules, text, rules: compiled });
    return this.remember(rules, source, compiled);
  }

  private remember(
    rules: readonly ToolRule[],
    source: RuleSource,
    compiled: readonly CompiledRule[],
  ): readonly CompiledRule[] {
    this.byList.set(rules, { source, rules: compiled });
    return compiled;
  }

  private compile(source: RuleSource, rule: ToolRule): CompiledRule {
    try {
      return compileRule(rule);
    } catch (err) {
      const why = err instanceof RuleCompileError ? err.message : String(err);
      this.logger.error(
        `tenant ${source.tenantId}, ${source.agentType}/${source.tool}: rule "${rule.id}" does not compile (${why}); its calls are refused`,
      );
      return {
        rule,
        needsCall: false,
        matches: () => {
          throw new Error(`the rule does not compile: ${why}`);
        },
      };
    }
  }
}

const sameSource = (a: RuleSource, b: RuleSource): boolean =>
  a.tenantId === b.tenantId &&
  a.agentType === b.agentType &&
  a.bindingVersion === b.bindingVersion &&
  a.tool === b.tool;
