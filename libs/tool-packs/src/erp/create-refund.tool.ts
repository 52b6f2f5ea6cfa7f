import { createHash } from 'node:crypto';
import { defineToolContract, never, withRetry } from '@toolgate/toolkit';
import { z } from 'zod';
import { UpstreamFormatError } from '../common/upstream-errors.js';
import {
  ERP_SOURCES,
  INVOICE_ID_PATTERN,
  MAX_REFUND_CNY,
  REFUND_REASON_LENGTH,
  SAP_CONNECTOR,
  YONYOU_NC_CONNECTOR,
} from './erp.constants.js';
import { invoiceNotFound, refundExceedsInvoice } from './erp.errors.js';
import { decimalToFen, fenToDecimal, toFen } from './refund-ledger.js';
import type { ErpSource } from './query-supplier-delivery.tool.js';
import { isSapInvoiceNotFound, isSapRefundTooLarge } from './sap.client.js';
import { sapConnector } from './sap.connector.js';
import { isNcInvoiceNotFound, isNcRefundTooLarge } from './yonyou-nc.client.js';
import { yonyouNcConnector } from './yonyou-nc.connector.js';

/** Input of `create_refund`, shared by every implementation. */
export const createRefundInput = z.object({
  invoiceId: z
    .string()
    .regex(INVOICE_ID_PATTERN)
    .describe('要退款的销售发票号，例如 SAP 90012001、用友 NC XSFP2025110001'),
  amount: z
    .number()
    .positive()
    .max(MAX_REFUND_CNY)
    // Whole fen: a refund of 0.001 yuan cannot be booked.
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
      message: 'at most two decimal places (最多两位小数)',
    })
    .describe('退款金额，人民币元（CNY），最多两位小数'),
  reason: z
    .string()
    .min(REFUND_REASON_LENGTH.min)
    .max(REFUND_REASON_LENGTH.max)
    .describe('退款原因，写入 ERP 单据备注，例如「货物破损，客户退回 20 件」'),
});

/** Output of `create_refund`. */
export const refundSchema = z.object({
  refundId: z.string().describe('ERP 中退款单据号（SAP 贷项凭证申请 / NC 红字退款单）'),
  invoiceId: z.string(),
  amount: z.number().describe('本次退款金额，元'),
  currency: z.literal('CNY'),
  remaining: z.number().describe('本次退款后该发票尚可退金额，元'),
  source: z.enum(ERP_SOURCES).describe('登记退款的 ERP'),
});

/** What every implementation returns. */
export type Refund = z.output<typeof refundSchema>;

/**
 * `create_refund`: books a refund against a sales invoice in the tenant's ERP (SAP credit memo
 * request, NC refund bill). L2, a reversible write: the ERP document can be reversed until the
 * payment run pays it out. The tool itself asks no approval — how much may be refunded without a
 * person is the tenant's decision, written as rules on its binding (docs/guides/rules.md; the demo
 * tenants: above ¥5,000 the finance group approves, above ¥50,000 refused). A refund must not be
 * booked twice when a call is re-run (docs/tool-design-rules.md §4.10): the call's stable
 * idempotency key goes upstream as each ERP's deduplication key, so retries are safe too.
 */
export const createRefund = defineToolContract({
  name: 'create_refund',
  description:
    '为一张销售发票在 ERP 中登记退款（SAP 贷项凭证申请 / 用友 NC 红字退款单），返回退款单号和发票剩余可退金额。' +
    '只在用户明确要求退款并给出发票号、金额和原因时使用；金额为人民币元。' +
    '同一发票的退款总额不能超过发票金额（REFUND_EXCEEDS_INVOICE）；发票号不存在时返回 INVOICE_NOT_FOUND。' +
    '租户规则可能要求大额退款先经财务审批，或拒绝超过上限的退款。',
  inputSchema: createRefundInput,
  keyFields: ['invoiceId'],
  outputSchema: refundSchema,
  risk: { level: 'L2', dataDomains: ['erp.finance'], estimatedDurationMs: 3000 },
  approval: {
    // No approval of its own: the tenant's rules decide by amount (a binding may still add one).
    request: never(),
    prompt: ({ input }) => `退款 ¥${input.amount}（发票 ${input.invoiceId}）？原因：${input.reason}`,
  },
  label: { start: ({ invoiceId, amount }) => `登记退款 ¥${amount}（发票 ${invoiceId}）` },
});

/**
 * A stable upstream key from the call's idempotency key: SAP reads a UUID-shaped repeatability id,
 * NC a short source bill code; a hash fits both and says nothing about sessions.
 */
export function upstreamRequestKey(idempotencyKey: string): string {
  const hex = createHash('sha256').update(idempotencyKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The ERP's answer in the contract's words. */
function refundOf(
  source: ErpSource,
  parts: { refundId: string; invoiceId: string; amount: string; remaining: string },
): Refund {
  const amountFen = decimalToFen(parts.amount);
  const remainingFen = decimalToFen(parts.remaining);
  if (amountFen === null || remainingFen === null)
    throw new UpstreamFormatError(
      source,
      200,
      'POST',
      'refund',
      'an amount that is not a decimal with two places',
    );
  return {
    refundId: parts.refundId,
    invoiceId: parts.invoiceId,
    amount: amountFen / 100,
    currency: 'CNY',
    remaining: remainingFen / 100,
    source,
  };
}

/** The `sap` implementation: a credit memo request (G2) referencing the billing document. */
export const createSapRefund = createRefund.implement(SAP_CONNECTOR, async (input, ctx) => {
  const sap = ctx.connector(sapConnector);
  const requestId = upstreamRequestKey(ctx.idempotencyKey);
  const request = {
    Vgbel: input.invoiceId,
    Netwr: fenToDecimal(toFen(input.amount)),
    Waerk: 'CNY' as const,
    Text: input.reason,
  };
  try {
    // Safe to retry: the repeatability id makes SAP answer a repeat with the first document.
    const row = await withRetry(() => sap.createRefund(request, requestId, ctx.abortSignal), {
      signal: ctx.abortSignal,
    });
    return refundOf('sap', {
      refundId: row.Vbeln,
      invoiceId: row.Vgbel,
      amount: row.Netwr,
      remaining: row.Restwert,
    });
  } catch (err) {
    if (isSapInvoiceNotFound(err)) throw invoiceNotFound(input.invoiceId, 'sap', ctx.locale);
    if (isSapRefundTooLarge(err)) throw refundExceedsInvoice(input.invoiceId, 'sap', ctx.locale);
    throw err;
  }
});

/** The `yonyou_nc` implementation: a refund (红字) bill against the sales invoice. */
export const createNcRefund = createRefund.implement(YONYOU_NC_CONNECTOR, async (input, ctx) => {
  const nc = ctx.connector(yonyouNcConnector);
  const request = {
    csaleinvoiceid: input.invoiceId,
    nrefundmny: fenToDecimal(toFen(input.amount)),
    vnote: input.reason,
    // NC keeps source bill codes unique: a repeat answers the bill saved first.
    vsrcbillcode: `TG${upstreamRequestKey(ctx.idempotencyKey).replace(/-/g, '').slice(0, 30)}`,
  };
  try {
    const bill = await withRetry(() => nc.saveRefund(request, ctx.abortSignal), { signal: ctx.abortSignal });
    return refundOf('yonyou_nc', {
      refundId: bill.vbillcode,
      invoiceId: bill.csaleinvoiceid,
      amount: bill.nrefundmny,
      remaining: bill.nremainmny,
    });
  } catch (err) {
    if (isNcInvoiceNotFound(err)) throw invoiceNotFound(input.invoiceId, 'yonyou_nc', ctx.locale);
    if (isNcRefundTooLarge(err)) throw refundExceedsInvoice(input.invoiceId, 'yonyou_nc', ctx.locale);
    throw err;
  }
});
