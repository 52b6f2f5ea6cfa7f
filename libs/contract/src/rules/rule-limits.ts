/**
 * Bounds of a tenant's rules (issue 26, ADR 041). Rules come from tenant admins and run on every
 * call of their tool, so what one rule may cost is bounded where it is written: its text, its
 * syntax tree, its nesting; and what it may ask for is bounded too.
 */
export const RULE_LIMITS = {
  /** Rules on one bound tool. */
  rulesPerTool: 50,
  /** Characters of one `when` expression. */
  expressionChars: 2_000,
  /** Nodes of one expression's syntax tree. */
  astNodes: 300,
  /** Depth of one expression's syntax tree. */
  depth: 24,
  /** Comprehensions (all, exists, exists_one, map, filter) inside one another: one level only. */
  comprehensionNesting: 1,
  /** Characters of one reason text. */
  reasonChars: 500,
  /** Approvers one rule may require. */
  approvers: 5,
  /** The longest approval expiry a rule may set (7 days). */
  expiresInMs: 7 * 24 * 3_600_000,
  /** Field paths one mask rule may name (input and output together). */
  maskPaths: 50,
  /** Segments of one mask path. */
  maskPathDepth: 16,
  /** The most calls a limit rule's bucket may allow per window. */
  limitMax: 1_000_000,
} as const;

/** A `limit` rule's windows, in milliseconds. */
export const RULE_LIMIT_WINDOWS_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
