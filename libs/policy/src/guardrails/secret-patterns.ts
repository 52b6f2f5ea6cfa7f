/**
 * Secrets a content guardrail recognises in text (ADR 045): well-known key and token formats, and
 * private keys. Each pattern opens with a fixed literal and has only bounded quantifiers over a
 * character class that cannot match what follows it: no nested or adjacent ambiguous quantifiers,
 * so the backtracking engine does a bounded amount of work per start position and the scan stays
 * linear in the text (content-scan.spec scans hostile runs that open patterns and close none). Never
 * tenant-written: tenants pick kinds, not patterns.
 */
export const SECRET_PATTERNS: readonly { readonly kind: string; readonly pattern: RegExp }[] = [
  { kind: 'private_key', pattern: /-----BEGIN [A-Z ]{0,30}PRIVATE KEY-----/g },
  { kind: 'aws_access_key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'aliyun_access_key', pattern: /\bLTAI[0-9A-Za-z]{12,24}\b/g },
  { kind: 'github_token', pattern: /\b(?:gh[pousr]_[0-9A-Za-z]{36,255}|github_pat_[0-9A-Za-z_]{22,255})\b/g },
  { kind: 'slack_token', pattern: /\bxox[abprs]-[0-9A-Za-z-]{10,200}/g },
  { kind: 'stripe_key', pattern: /\b[rs]k_live_[0-9A-Za-z]{16,200}\b/g },
  { kind: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'openai_key', pattern: /\bsk-(?:proj-|ant-)?[0-9A-Za-z_-]{20,200}/g },
  // A JWT starts where a run of base64url characters starts: `\b` would also start one after every
  // `-` inside a run, and `-eyJ` repeated made each start rescan the next 4 kB (400 ms per 64 kB).
  {
    kind: 'jwt',
    pattern: /(?<![0-9A-Za-z_-])eyJ[0-9A-Za-z_-]{8,4096}\.eyJ[0-9A-Za-z_-]{8,8192}\.[0-9A-Za-z_-]{8,4096}/g,
  },
  { kind: 'bearer_token', pattern: /\bBearer [0-9A-Za-z._~+/-]{20,4096}/g },
];
