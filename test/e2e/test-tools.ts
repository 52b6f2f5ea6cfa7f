import { Module } from '@nestjs/common';
import { defineTool, ToolkitModule } from '@toolgate/toolkit';
import { z } from 'zod';

/** A streaming tool, only loaded by tests: each yield is a whole snapshot. */
export const buildReport = defineTool({
  name: 'build_report',
  description: 'Builds a project report in phases (test tool).',
  inputSchema: z.object({ project: z.string().min(1) }),
  risk: { level: 'L0' },
  label: {
    start: ({ project }) => `为 ${project} 生成报告`,
    delta: (_input, partial: { phase: string }) => partial.phase,
  },
  async *execute({ project }) {
    yield { project, phase: '收集资料', sections: [] as string[] };
    await new Promise((r) => setTimeout(r, 20));
    yield { project, phase: '完成', sections: ['概览', '风险'] };
  },
});

/** A governed no-op, the cheapest possible tool. */
export const noop = defineTool({
  name: 'noop',
  description: 'Does nothing and answers ok (test tool).',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  execute: () => ({ ok: true }),
});

@Module({ imports: [ToolkitModule.forFeature([buildReport, noop], 'TestToolsModule')] })
export class TestToolsModule {}

/** A third tenant with a narrow binding, for "not bound" and streaming tests. */
export const INITECH_YAML = `
id: initech
name: Initech
connectors:
  ops_api:
    baseUrl: \${DEMO_OPS_URL}
    token: demo-ops-token
agentTypes:
  ops_assistant:
    tools:
      - get_service_status
  reporting:
    tools:
      - build_report
      - noop
`;
