import { describe, expect, it } from 'vitest';
import { IMPORTED_TOOL_NAME_PATTERN } from '../constants.js';
import { defaultToolgateName } from './upstream-imports.js';
import { contractProblems } from '../upstream-tenant-tools.js';

describe('imported tool names and policy', () => {
  it('namespaces upstream names as <server>__<snake_case>', () => {
    expect(defaultToolgateName('crm', 'find_customer')).toBe('crm__find_customer');
    expect(defaultToolgateName('crm', 'findCustomer')).toBe('crm__find_customer');
    expect(defaultToolgateName('crm', 'get-Order.v2')).toBe('crm__get_order_v2');
    expect(defaultToolgateName('crm', '2fa')).toBe('crm__t_2fa');
    for (const n of ['crm__find_customer', 'crm__get_order_v2'])
      expect(IMPORTED_TOOL_NAME_PATTERN.test(n)).toBe(true);
    // A registry-style name has no namespace: an import can never take it.
    expect(IMPORTED_TOOL_NAME_PATTERN.test('get_service_status')).toBe(false);
  });

  it('builds a dynamic contract through the toolkit rules (JSON Schema input must be an object)', () => {
    const spec = {
      toolgateName: 'crm__lookup',
      riskLevel: 'L3' as const,
      dataDomains: [],
      timeoutMs: 5000,
      definition: { name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object' } },
    };
    expect(contractProblems(spec)).toEqual([]);
    expect(
      contractProblems({ ...spec, definition: { ...spec.definition, inputSchema: { type: 'string' } } }),
    ).toEqual([expect.stringContaining('object')]);
    expect(contractProblems({ ...spec, timeoutMs: 60_000 })).toEqual([expect.stringContaining('timeoutMs')]);
  });
});
