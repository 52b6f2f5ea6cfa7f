import { Environment, type ASTNode, type ParseResult } from '@marcbachmann/cel-js';
import { RULE_LIMITS, type ToolRule } from '@toolgate/contract/rules';

/**
 * The one CEL environment of rules (ADR 041): the variables a rule may read, typed, and the
 * structural limits of the parser. Unknown variables are refused when a rule is saved.
 */
const RULE_ENV = new Environment({
  limits: {
    maxAstNodes: RULE_LIMITS.astNodes,
    maxDepth: RULE_LIMITS.depth,
    maxListElements: 100,
    maxMapEntries: 100,
    maxCallArguments: 8,
  },
})
  .registerVariable('input', 'dyn')
  .registerVariable('principal', 'map')
  .registerVariable('tool', 'map')
  .registerVariable('now', 'google.protobuf.Timestamp')
  .registerVariable('face', 'string')
  .registerVariable('run', 'map');

/** The macros that loop over a list or map: their bodies run once per element. */
const COMPREHENSIONS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
/**
 * Functions refused in rules: `matches` compiles a tenant-written pattern to a backtracking RegExp
 * (a pattern like `(a+)+$` on an agent's input would stall the process).
 */
const REFUSED_FUNCTIONS: ReadonlySet<string> = new Set(['matches']);
/** Variables whose value only a call has; a rule reading none of them can be decided per principal. */
const CALL_VARIABLES: ReadonlySet<string> = new Set(['input', 'face', 'run']);

/** What the evaluation of a rule reads: the call's facts as CEL values. */
export interface RuleFacts {
  readonly input: unknown;
  readonly principal: Readonly<Record<string, unknown>>;
  readonly tool: Readonly<Record<string, unknown>>;
  readonly now: Date;
  readonly face: string;
  readonly run: Readonly<Record<string, unknown>>;
}

/** A rule compiled once per binding version: its text, and a function of the call's facts. */
export interface CompiledRule {
  readonly rule: ToolRule;
  /** Reads `input`, `face` or `run`: only a call can decide it, never a listing. */
  readonly needsCall: boolean;
  /** true when the rule matches; throws when it cannot be evaluated (the caller fails closed). */
  readonly matches: (facts: RuleFacts) => boolean;
}

/** A rule that cannot be compiled: why, in words for the admin who wrote it. */
export class RuleCompileError extends Error {}

interface Shape {
  nesting: number;
  refused: string | null;
  needsCall: boolean;
}

/** Walks the syntax tree: comprehension nesting, refused functions, variables read. */
function shapeOf(node: unknown, depth: number, shape: Shape): void {
  if (Array.isArray(node)) {
    for (const n of node) shapeOf(n, depth, shape);
    return;
  }
  if (!node || typeof node !== 'object' || !('op' in node)) return;
  const { op, args } = node as ASTNode;
  const list = Array.isArray(args) ? (args as unknown[]) : [args];
  let inner = depth;
  if (op === 'id' && typeof list[0] === 'string' && CALL_VARIABLES.has(list[0])) shape.needsCall = true;
  if ((op === 'call' || op === 'rcall') && typeof list[0] === 'string') {
    if (REFUSED_FUNCTIONS.has(list[0])) shape.refused = list[0];
    if (op === 'rcall' && COMPREHENSIONS.has(list[0])) {
      inner = depth + 1;
      shape.nesting = Math.max(shape.nesting, inner);
    }
  }
  for (const a of list) if (a && typeof a === 'object') shapeOf(a, inner, shape);
}

/**
 * Compiles one rule, or throws RuleCompileError saying why not: a syntax or type error, an unknown
 * variable, a result that is not a bool, a refused function, comprehensions inside comprehensions
 * (their cost is the product of the lists' sizes), or a tree past RULE_LIMITS.
 */
export function compileRule(rule: ToolRule): CompiledRule {
  if (rule.when.length > RULE_LIMITS.expressionChars)
    throw new RuleCompileError(`"when" is longer than ${RULE_LIMITS.expressionChars} characters`);
  let parsed: ParseResult;
  try {
    parsed = RULE_ENV.parse(rule.when);
  } catch (err) {
    throw new RuleCompileError(firstLine(err));
  }
  const checked = parsed.check();
  if (!checked.valid) throw new RuleCompileError(firstLine(checked.error));
  if (checked.type !== 'bool' && checked.type !== 'dyn')
    throw new RuleCompileError(`"when" must be true or false, not ${checked.type}`);
  const shape: Shape = { nesting: 0, refused: null, needsCall: false };
  shapeOf(parsed.ast, 0, shape);
  if (shape.refused)
    throw new RuleCompileError(
      `${shape.refused}() is not allowed in rules; use startsWith, endsWith or contains`,
    );
  if (shape.nesting > RULE_LIMITS.comprehensionNesting)
    throw new RuleCompileError(
      'a comprehension (all, exists, map, filter) inside another is not allowed in rules',
    );
  return {
    rule,
    needsCall: shape.needsCall,
    matches: (facts) => {
      const value: unknown = parsed(facts as unknown as Record<string, unknown>);
      if (typeof value !== 'boolean') throw new Error(`"when" gave ${typeof value}, not true or false`);
      return value;
    },
  };
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.slice(0, 300);
}
