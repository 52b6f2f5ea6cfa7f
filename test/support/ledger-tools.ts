import { Module } from '@nestjs/common';
import {
  always,
  defineConnector,
  defineToolContract,
  ToolkitModule,
  type ToolContext,
} from '@toolgate/toolkit';
import { z } from 'zod';

/**
 * Test tools whose upstream is a `LedgerSimulator` (test/support/ledger-simulator.ts): each call
 * POSTs to the tenant's `ledger` connector with the call's `ctx.idempotencyKey`, so a test can
 * count what reached the upstream under which key. Built into dist with the rest of test/support,
 * they run in gateway processes started from test/support/tools-gateway-main.ts.
 */
export const ledgerConnector = defineConnector({
  name: 'ledger',
  description: 'A ledger API that deduplicates on Idempotency-Key (test connector).',
  configSchema: z.object({ baseUrl: z.url({ protocol: /^https?$/ }) }),
  endpointFields: ['baseUrl'],
  create: (config) => ({ baseUrl: config.baseUrl.replace(/\/$/, '') }),
});

/** The entry as the upstream stored it. */
interface LedgerAnswer {
  readonly entry: string;
  readonly seq: number;
  readonly replayed: boolean;
}

async function post(ctx: ToolContext, path: string, body: Record<string, unknown>): Promise<LedgerAnswer> {
  const { baseUrl } = ctx.connector(ledgerConnector);
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': ctx.idempotencyKey },
    body: JSON.stringify(body),
    signal: ctx.abortSignal,
  });
  if (!res.ok) throw new Error(`ledger answered ${res.status}`);
  return (await res.json()) as LedgerAnswer;
}

/** L1: appends an entry; `slowMs` holds the upstream's first answer for that long (test tool). */
export const ledgerAppend = defineToolContract({
  name: 'ledger_append',
  description: 'Appends an entry to the ledger (test tool, L1).',
  inputSchema: z.object({
    entry: z.string().min(1).max(200),
    slowMs: z.number().int().min(0).max(25_000).default(0),
  }),
  risk: { level: 'L1', dataDomains: ['ledger'] },
  timeoutMs: 30_000,
}).implement(({ entry, slowMs }, ctx) => post(ctx, '/entries', { entry, slowMs }));

/** L3: moves money; every call waits for a person (test tool). */
export const ledgerTransfer = defineToolContract({
  name: 'ledger_transfer',
  description: 'Transfers an amount between ledger accounts; needs approval (test tool, L3).',
  inputSchema: z.object({ to: z.string().min(1).max(64), amount: z.number().positive() }),
  risk: { level: 'L3', dataDomains: ['ledger'] },
  approval: always(),
}).implement(({ to, amount }, ctx) => post(ctx, '/transfers', { entry: `${amount} → ${to}` }));

@Module({
  imports: [
    ToolkitModule.forFeature([ledgerAppend, ledgerTransfer], {
      source: 'LedgerToolsModule',
      connectors: [ledgerConnector],
    }),
  ],
})
export class LedgerToolsModule {}
