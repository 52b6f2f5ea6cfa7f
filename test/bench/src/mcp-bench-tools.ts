import { Module } from '@nestjs/common';
import { always, defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { z } from 'zod';

/** How many tools the wide agent type binds (the tools/list target is stated for 500). */
export const WIDE_TOOL_COUNT = 500;

const wideName = (i: number) => `wide_tool_${String(i).padStart(3, '0')}`;

/** Tools shaped like real ones (a few typed fields, descriptions of a sentence or two), L0 to L3. */
const wideTools = Array.from({ length: WIDE_TOOL_COUNT }, (_, i) =>
  defineToolContract({
    name: wideName(i),
    description: `Looks up record set ${i} by its key and answers the matching rows with their status and owner.`,
    inputSchema: z.object({
      key: z.string().min(1).max(64),
      limit: z.number().int().min(1).max(100).default(20),
      includeArchived: z.boolean().default(false),
    }),
    outputSchema: z.object({ rows: z.array(z.object({ id: z.string(), status: z.string() })) }),
    risk: { level: (['L0', 'L1', 'L2', 'L3'] as const)[i % 4]! },
    ...(i % 4 === 3 ? { approval: always() } : {}),
  }).implement(() => ({ rows: [] })),
);

@Module({ imports: [ToolkitModule.forFeature(wideTools, 'BenchWideToolsModule')] })
export class BenchWideToolsModule {}

/** A tenant whose one agent type binds every wide tool. */
export const BENCH_WIDE_TENANT_YAML = `
id: benchwide
name: Benchmark (500 tools)
agentTypes:
  wide:
    description: An agent type with ${WIDE_TOOL_COUNT} bound tools.
    tools:
${Array.from({ length: WIDE_TOOL_COUNT }, (_, i) => `      - ${wideName(i)}`).join('\n')}
`;
