import { Global, Module } from '@nestjs/common';
import { GuardrailHook } from './guardrails/guardrail.hook.js';
import { PolicyHook } from './policy.hook.js';
import { RuleBook } from './rule-book.js';
import { ToolPolicy } from './tool-policy.js';

/**
 * The tenants' rules on arguments and content: the compiled rules, the pipeline hook, and
 * `ToolPolicy` for the faces (listings hide what a principal's rules always refuse; the check
 * endpoint explains a decision). Global: the agents lib and the gateway read `ToolPolicy`.
 */
@Global()
@Module({
  providers: [RuleBook, ToolPolicy, PolicyHook, GuardrailHook],
  exports: [ToolPolicy],
})
export class PolicyModule {}
