import { always, defineToolContract, once, ToolRegistry } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { diffBindings } from '@toolgate/contract/rules';
import { bindingProblems, bindTool, type BoundTool } from './binding-rules.js';

const readStatus = defineToolContract({
  name: 'read_status',
  description: 'Reads a status.',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  timeoutMs: 5_000,
}).implement(() => ({ up: true }));
const changeSetting = defineToolContract({
  name: 'change_setting',
  description: 'Changes a setting.',
  inputSchema: z.object({ value: z.string() }),
  risk: { level: 'L2' },
  timeoutMs: 10_000,
  approval: once(),
}).implement(() => ({ changed: true }));
const lookUp = defineToolContract({
  name: 'look_up',
  description: 'Looks something up.',
  inputSchema: z.object({}),
  risk: { level: 'L1' },
  timeoutMs: 8_000,
}).implement(() => ({}));
const restart = defineToolContract({
  name: 'restart_all',
  description: 'Restarts everything.',
  inputSchema: z.object({}),
  risk: { level: 'L3' },
  approval: always(),
}).implement(() => ({}));
const query = defineToolContract({
  name: 'query_orders',
  description: 'Queries orders in one of two ERPs.',
  inputSchema: z.object({}),
  risk: { level: 'L1' },
});

const registry = new ToolRegistry();
for (const tool of [
  readStatus,
  changeSetting,
  lookUp,
  restart,
  query.implement('sap', () => []),
  query.implement('nc', () => []),
])
  registry.register(tool, 'spec');
registry.seal();

/** The problem of a refused entry, or a failure when it was accepted. */
const refusal = (bound: BoundTool) => {
  if (bound.ok) throw new Error(`expected a refusal, got ${bound.tool.contract.name}`);
  return { field: bound.field, problem: bound.problem };
};

describe('bindTool', () => {
  it('binds a tool under its declared policy when the entry overrides nothing', () => {
    const bound = bindTool({ name: 'change_setting' }, registry, 7);
    expect(bound.ok && bound.tool).toMatchObject({
      timeoutMs: 10_000,
      approval: 'once',
      bindingVersion: 7,
      implementation: { name: 'default' },
      contract: { name: 'change_setting' },
    });
  });

  it('accepts overrides that tighten: a shorter or equal time limit, more approval', () => {
    const tightened = bindTool({ name: 'change_setting', timeoutMs: 2_000, approval: 'always' }, registry, 1);
    expect(tightened.ok && [tightened.tool.timeoutMs, tightened.tool.approval]).toEqual([2_000, 'always']);
    const same = bindTool({ name: 'change_setting', timeoutMs: 10_000, approval: 'once' }, registry, 1);
    expect(same.ok && [same.tool.timeoutMs, same.tool.approval]).toEqual([10_000, 'once']);
    const added = bindTool({ name: 'look_up', approval: 'once' }, registry, 1);
    expect(added.ok && added.tool.approval).toBe('once');
  });

  it('refuses a longer time limit, naming the tool, the field and the declared limit', () => {
    expect(refusal(bindTool({ name: 'change_setting', timeoutMs: 10_001 }, registry, 1))).toEqual({
      field: 'timeoutMs',
      problem:
        'tool "change_setting": timeoutMs 10001 is looser than the declared 10000 ms; a binding may only shorten it',
    });
  });

  it('refuses less approval than the tool declares, L3 tools included', () => {
    expect(refusal(bindTool({ name: 'change_setting', approval: 'never' }, registry, 1))).toEqual({
      field: 'approval',
      problem:
        'tool "change_setting": approval "never" is looser than the declared "once"; a binding may only add approval',
    });
    expect(refusal(bindTool({ name: 'restart_all', approval: 'once' }, registry, 1)).field).toBe('approval');
  });

  it('refuses approval on a read-only L0 tool but accepts an explicit never', () => {
    expect(refusal(bindTool({ name: 'read_status', approval: 'always' }, registry, 1))).toEqual({
      field: 'approval',
      problem: 'tool "read_status": an L0 tool is read-only and takes no approval',
    });
    expect(bindTool({ name: 'read_status', approval: 'never' }, registry, 1).ok).toBe(true);
  });

  it('refuses a tool the registry does not have', () => {
    expect(refusal(bindTool({ name: 'drop_tables' }, registry, 1))).toEqual({
      field: 'name',
      problem: 'tool "drop_tables" does not exist',
    });
  });

  it('needs an implementation where a tool has several, and names the ones available', () => {
    expect(refusal(bindTool({ name: 'query_orders' }, registry, 1))).toEqual({
      field: 'implementation',
      problem: 'tool "query_orders": implementation is required, pick one of sap, nc',
    });
    expect(refusal(bindTool({ name: 'query_orders', implementation: 'oracle' }, registry, 1))).toEqual({
      field: 'implementation',
      problem: 'tool "query_orders": implementation "oracle" does not exist (available: sap, nc)',
    });
    const sap = bindTool({ name: 'query_orders', implementation: 'sap' }, registry, 1);
    expect(sap.ok && sap.tool.implementation.name).toBe('sap');
  });
});

describe('bindingProblems', () => {
  it('reports every problem of a binding with the index of its entry, tools listed twice included', () => {
    expect(
      bindingProblems(
        [
          { name: 'read_status' },
          { name: 'change_setting', timeoutMs: 60_000 },
          { name: 'read_status', timeoutMs: 1_000 },
          { name: 'nope' },
        ],
        registry,
      ),
    ).toEqual([
      { index: 1, field: 'timeoutMs', problem: expect.stringContaining('"change_setting": timeoutMs 60000') },
      { index: 2, field: 'name', problem: 'tool "read_status" is listed twice' },
      { index: 3, field: 'name', problem: 'tool "nope" does not exist' },
    ]);
    expect(bindingProblems([{ name: 'read_status' }, { name: 'look_up' }], registry)).toEqual([]);
  });
});

describe('diffBindings', () => {
  it('names added, removed and changed tools; unset fields do not count as a change', () => {
    const diff = diffBindings(
      [{ name: 'read_status' }, { name: 'change_setting', timeoutMs: 5_000 }, { name: 'look_up' }],
      [
        { name: 'read_status', timeoutMs: undefined },
        { name: 'change_setting', timeoutMs: 4_000 },
        { name: 'restart_all' },
      ],
    );
    expect(diff).toEqual({
      added: ['restart_all'],
      removed: ['look_up'],
      changed: [
        {
          name: 'change_setting',
          from: { name: 'change_setting', timeoutMs: 5_000 },
          to: { name: 'change_setting', timeoutMs: 4_000 },
        },
      ],
    });
  });
});
