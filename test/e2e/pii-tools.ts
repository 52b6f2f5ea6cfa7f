import { Module } from '@nestjs/common';
import { always, defineToolContract, sensitive, ToolkitModule } from '@toolgate/toolkit';
import { z } from 'zod';

/** The personal data a test plants, one of each kind the platform recognises, and a name. */
export const PLANTED = {
  phone: '13812345678',
  idNumber: '11010519491231002X',
  email: 'zhang.san@example.com',
  bankCard: '4111111111111111',
  name: '张三',
} as const;

/** A customer's data as a tool takes it: the name and ID number marked, the rest found by value. */
const customerInput = z.object({
  customer: sensitive(z.string(), 'personal'),
  phone: z.string(),
  idNumber: sensitive(z.string(), 'sensitive_personal'),
  email: z.string(),
  bankCard: z.string(),
  note: z.string().default(''),
  fail: z.boolean().default(false),
});
type CustomerInput = z.infer<typeof customerInput>;

/** What both tools answer: every planted value again, the name standalone in an unmarked field. */
const answer = (input: CustomerInput) => {
  if (input.fail)
    throw new Error(
      `服务 客户 ${input.phone} 投诉 ${input.email} 卡 ${input.bankCard} 处理人 ${input.customer} 不存在`,
    );
  return {
    handler: input.customer,
    contact: { phone: input.phone, email: input.email },
    card: input.bankCard,
    idNumber: input.idNumber,
    summary: `客户 ${input.phone} 已登记`,
  };
};

/** An L1 tool that answers personal data, names included (it opts in to the name check). */
export const fileComplaint = defineToolContract({
  name: 'file_complaint',
  description: 'Files a customer complaint, or fails naming the customer (test tool, L1).',
  inputSchema: customerInput,
  risk: { level: 'L1', dataDomains: ['crm.complaints'] },
  redactNames: true,
}).implement(answer);

/** The same with a person's approval every time (test tool, L2). */
export const closeAccount = defineToolContract({
  name: 'close_account',
  description: 'Closes a customer account after approval (test tool, L2).',
  inputSchema: customerInput,
  outputSchema: z.object({
    handler: sensitive(z.string(), 'personal'),
    contact: z.object({ phone: z.string(), email: z.string() }),
    card: z.string(),
    idNumber: sensitive(z.string(), 'sensitive_personal'),
    summary: z.string(),
  }),
  risk: { level: 'L2' },
  approval: { request: always() },
  redactNames: true,
}).implement(answer);

@Module({ imports: [ToolkitModule.forFeature([fileComplaint, closeAccount], 'PiiToolsModule')] })
export class PiiToolsModule {}

/** A tenant whose agent type handles customers' complaints. */
export const CARE_YAML = `
id: care
name: Customer care
agentTypes:
  care_desk:
    description: Files complaints
    tools:
      - file_complaint
      - close_account
  care_lead:
    description: Hands complaints to the desk
    subAgents: [care_desk]
    tools: []
`;
