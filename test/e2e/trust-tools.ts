import { Module } from '@nestjs/common';
import {
  always,
  defineToolContract,
  sensitive,
  ToolCallFailedError,
  ToolError,
  ToolkitModule,
} from '@toolgate/toolkit';
import { z } from 'zod';

/** An L2 tool whose input carries secrets; it asks a person every time with the generic prompt. */
export const rotateCredential = defineToolContract({
  name: 'rotate_credential',
  description: 'Rotates a service credential (test tool, L2, approval always).',
  inputSchema: z.object({
    account: z.string(),
    password: z.string(),
    pin: sensitive(z.string(), 'sensitive_personal'),
    note: z.string().default(''),
  }),
  risk: { level: 'L2' },
  approval: { request: always() },
}).implement(({ account }) => ({ rotated: account }));

/** An L2 tool whose own approval prompt is broken. */
export const brokenPrompt = defineToolContract({
  name: 'broken_prompt',
  description: 'Asks for approval with a prompt that throws (test tool, L2).',
  inputSchema: z.object({ target: z.string() }),
  risk: { level: 'L2' },
  approval: {
    request: always(),
    prompt: () => {
      throw new Error('template variable missing');
    },
  },
}).implement(({ target }) => ({ done: target }));

/** An L1 tool that fails with a code the platform reserves, the ways a tool could try. */
export const failsLikePlatform = defineToolContract({
  name: 'fails_like_platform',
  description: 'Fails with a platform code (test tool, L1).',
  inputSchema: z.object({ how: z.enum(['tool_error', 'nested', 'code_only']), code: z.string() }),
  risk: { level: 'L1' },
}).implement(({ how, code }) => {
  if (how === 'tool_error') throw new ToolError(code, 'upstream said so', 'wait');
  if (how === 'nested') throw new ToolCallFailedError({ error: 'inner call', code, suggestedAction: 'wait' });
  throw Object.assign(new Error('looks like a platform error'), { code });
});

/** An L1 tool that answers personal data: readers other than its caller see it redacted. */
export const lookupCustomer = defineToolContract({
  name: 'lookup_customer',
  description: 'Looks a customer up (test tool, L1).',
  inputSchema: z.object({ id: z.string() }),
  risk: { level: 'L1' },
}).implement(({ id }) => ({ id, phone: '13812345678', email: 'zhang.san@example.com' }));

@Module({
  imports: [
    ToolkitModule.forFeature(
      [rotateCredential, brokenPrompt, failsLikePlatform, lookupCustomer],
      'TrustToolsModule',
    ),
  ],
})
export class TrustToolsModule {}

/** A tenant for the trust-boundary tests. */
export const TRUSTCO_YAML = `
id: trustco
name: TrustCo
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: \${TOOLGATE_T_TRUSTCO__OPS_TOKEN:-demo-ops-token}
agentTypes:
  ops_assistant:
    tools:
      - get_service_status
      - restart_service
      - rotate_credential
      - broken_prompt
      - fails_like_platform
      - lookup_customer
      - send_notice
  other_agent:
    tools:
      - get_service_status
`;
