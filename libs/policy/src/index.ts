// Every export is public API of @toolgate/policy: tenants' rules on a tool's calls and content guardrails (issue 26, ADRs 041, 045).
export { scanContent } from './guardrails/content-scan.js';
export { PolicyModule } from './policy.module.js';
export { compileRule, RuleCompileError } from './rule-compiler.js';
export type { CompiledRule, RuleFacts } from './rule-compiler.js';
export { deniesEveryCall, firstMatch, outcomeOf, reasonOf } from './rule-decision.js';
export type { RuleMatch } from './rule-decision.js';
export { principalFacts, toolFacts } from './rule-facts.js';
export { maskInput, unfitMask } from './rule-mask.js';
export { ruleProblems } from './rule-tightening.js';
export type { RuledTool, RuleProblem } from './rule-tightening.js';
export { ToolPolicy } from './tool-policy.js';
