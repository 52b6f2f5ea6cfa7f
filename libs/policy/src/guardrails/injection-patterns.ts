/**
 * Instruction-like text in a tool's result (ADR 045): a heuristic for prompt injection, in English
 * and Chinese — text addressed to the model rather than data (ignore your instructions, you are
 * now, reveal the system prompt, call this tool). A heuristic flags, it does not prove: the action
 * (mask or block) and the audit flag are the tenant's choice per tool. Bounded gaps only (`{0,40}`
 * over a class that excludes the sentence's end), so each start position costs a bounded amount:
 * linear in the text.
 */
export const INJECTION_PATTERNS: readonly { readonly kind: string; readonly pattern: RegExp }[] = [
  {
    kind: 'ignore_instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|your|the system)\b[^.!?\n]{0,40}\b(?:instructions?|prompts?|rules|directions|guidelines)\b/gi,
  },
  {
    kind: 'role_override',
    pattern:
      /\b(?:you are now|from now on,? you|act as (?:an?|the) (?:unrestricted|jailbroken|developer))\b/gi,
  },
  {
    kind: 'system_prompt',
    pattern:
      /\b(?:reveal|print|show|repeat|leak)\b[^.!?\n]{0,40}\b(?:system prompt|hidden instructions|your instructions)\b/gi,
  },
  { kind: 'fake_turn', pattern: /(?:^|\n)\s{0,8}(?:system|assistant)\s{0,4}:|<\|im_start\|>|\[\/?INST\]/gi },
  {
    kind: 'tool_instruction',
    pattern:
      /\b(?:call|invoke|run|use)\b[^.!?\n]{0,20}\b(?:the )?(?:tool|function)\b[^.!?\n]{0,40}\b(?:immediately|now|without (?:asking|approval|confirmation))\b/gi,
  },
  {
    kind: 'ignore_instructions',
    pattern:
      /(?:忽略|无视|忘记|忘掉)[^。！？\n]{0,20}(?:之前|以上|上面|前面|先前|所有|系统)[^。！？\n]{0,20}(?:指令|指示|提示|规则|要求)/g,
  },
  { kind: 'role_override', pattern: /(?:你现在是|从现在起你|从现在开始你|扮演一个)/g },
  {
    kind: 'system_prompt',
    pattern: /(?:泄露|输出|显示|告诉我)[^。！？\n]{0,20}(?:系统提示|系统提示词|隐藏指令)/g,
  },
];
