import { describe, expect, it } from 'vitest';
import type { FilterColumn } from './audit-calls.repository.js';
import { pageLanes } from './call-page-lanes.js';

const forced = (columns: Record<string, string>) =>
  /FORCE INDEX \((\w+)\)/.exec(
    pageLanes(
      { columns: new Map(Object.entries(columns) as [FilterColumn, string][]), termGroups: [] },
      ['acme'],
      50,
      true,
    )[0]!.sql,
  )?.[1];

describe('the index a call lane forces on MariaDB', () => {
  it('reads a tool and a status through their pair index, unless a rarer column leads', () => {
    expect(forced({ tool: 'restart_service', status: 'error' })).toBe('idx_audit_calls_tool_status');
    expect(forced({ tool: 'restart_service' })).toBe('idx_audit_calls_tool');
    expect(forced({ tool: 'restart_service', status: 'error', run_id: 'r1' })).toBe('idx_audit_calls_run');
    expect(forced({ status: 'error', agent_type: 'ops' })).toBe('idx_audit_calls_agent');
    expect(forced({})).toBe('idx_audit_calls_time');
  });
});
