/**
 * The gateway's views against the REST contract (libs/contract). Type-level: `npm run typecheck`
 * (tsc over test/**) fails when a view function's return type and the contract's type drift apart
 * — a field added, dropped, renamed, or typed differently on either side. The lists of words
 * (codes, event types, levels) are compared at run time as well.
 */
import type { AgentTypeSummary as AgentsLibSummary } from '@toolgate/agents';
import type { ApprovalView as ApprovalsLibView } from '@toolgate/approvals';
import type { CallView } from '@toolgate/calls';
import {
  AUDIT_EVENT_TYPES as AUDIT_LIB_EVENT_TYPES,
  type ApiAuditEvent,
  type AuditQueries,
  type StoredCheckpoint,
  type TenantVerification as AuditLibTenantVerification,
  type Verification as AuditLibVerification,
} from '@toolgate/audit';
import { ROLES as AUTH_ROLES, type Principal } from '@toolgate/auth';
import {
  AUDIT_EVENT_TYPES,
  ROLES,
  bindingDiffSchema,
  bindingToolSchema,
  type AgentTypeSummary,
  type ApprovalView,
  type AuditEventView,
  type BindingDiff,
  type BindingHistoryEntry,
  type BindingPreview,
  type BindingTool,
  type BindingView,
  type CallRead,
  type CallState,
  type CatalogTool,
  type Checkpoint,
  type CheckpointExport,
  type ErrorEnvelope,
  type ImportResult,
  type IncompleteCall,
  type JsonSchemaTool,
  type PrincipalView,
  type Stats,
  type TenantDetail,
  type TenantVerification,
  type TenantView,
  type Verification,
} from '@toolgate/contract';
import type { BindingAdmin, TenantAdmin, toBindingView } from '@toolgate/tenancy';
import { type ErrorEnvelope as ToolkitErrorEnvelope, type toJsonSchemaItem } from '@toolgate/toolkit';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { StatsService } from '../../apps/gateway/src/admin/stats.service.js';
import type { ToolCatalog } from '../../apps/gateway/src/admin/tool-catalog.service.js';

/** Every field name of every member of a union (`keyof` of a union keeps only the shared ones). */
type FieldsOf<T> = T extends unknown ? keyof T : never;

/**
 * Compiles only when `View` and `Contract` have the same fields and each is assignable to the
 * other; otherwise tsc names the first difference as the missing argument.
 */
type SameShape<View, Contract> = [View] extends [Contract]
  ? [Contract] extends [View]
    ? [FieldsOf<View>] extends [keyof Contract]
      ? [keyof Contract] extends [FieldsOf<View>]
        ? []
        : ['the contract has fields the view does not send']
      : ['the view sends fields the contract does not declare']
    : ['the contract promises what the view does not send (types or optionality differ)']
  : ['the view sends what the contract does not allow (types differ)'];
const sameShape = <View, Contract>(..._drift: SameShape<View, Contract>): void => undefined;

type Result<F extends (...args: any) => any> = Awaited<ReturnType<F>>;
type Item<T> = T extends readonly (infer I)[] ? I : never;

describe('the gateway sends what libs/contract declares', () => {
  it('keys, tenants, bindings and the catalog', () => {
    sameShape<Result<typeof toBindingView>, BindingView>();
    sameShape<Item<Result<TenantAdmin['list']>>, TenantView>();
    sameShape<Result<TenantAdmin['get']>, TenantDetail>();
    sameShape<Result<TenantAdmin['create']>, TenantDetail>();
    sameShape<Result<TenantAdmin['importYaml']>, ImportResult>();
    sameShape<Result<BindingAdmin['preview']>, BindingPreview>();
    sameShape<Item<Result<BindingAdmin['history']>>, BindingHistoryEntry>();
    expectTypeOf<BindingHistoryEntry['kind']>().toEqualTypeOf<'import' | 'update'>();
    sameShape<Item<Result<ToolCatalog['list']>>, CatalogTool>();
  });

  it('agents: agent types, tool listings, the principal', () => {
    sameShape<AgentsLibSummary, AgentTypeSummary>();
    // toJsonSchemaItem types `endsTurn` as string (its value is true, false or 'dynamic'), and the
    // schemas as the toolkit's JsonSchemaObject, which the contract sends as a plain JSON object.
    type Loose = 'endsTurn' | 'inputSchema' | 'outputSchema';
    sameShape<Omit<ReturnType<typeof toJsonSchemaItem>, Loose>, Omit<JsonSchemaTool, Loose>>();
    expectTypeOf<ReturnType<typeof toJsonSchemaItem>['inputSchema']>().toExtend<
      JsonSchemaTool['inputSchema']
    >();
    expectTypeOf<FieldsOf<ReturnType<typeof toJsonSchemaItem>>>().toEqualTypeOf<keyof JsonSchemaTool>();
    // csrfToken belongs to a browser session, not to the principal, and separatedDuties to the
    // deployment (its compliance profile); the rest is the principal's.
    type SessionOnly = 'csrfToken' | 'separatedDuties';
    sameShape<Pick<Principal, Exclude<keyof PrincipalView, SessionOnly>>, Omit<PrincipalView, SessionOnly>>();
  });

  it('calls and approvals', () => {
    sameShape<CallView, CallState>();
    sameShape<CallView & { redacted?: true }, CallRead>();
    sameShape<ApprovalsLibView, ApprovalView>();
    expectTypeOf<CallState>().toHaveProperty('approvalId');
    expectTypeOf<CallState['createdAt']>().toEqualTypeOf<string>();
  });

  it('the audit trail', () => {
    // libs/audit types riskLevel as string | null; every value written is a RiskLevel (or null for
    // admin events), which is what the contract promises clients.
    sameShape<Omit<ApiAuditEvent, 'riskLevel'>, Omit<AuditEventView, 'riskLevel'>>();
    expectTypeOf<AuditEventView['riskLevel']>().toExtend<ApiAuditEvent['riskLevel']>();
    sameShape<
      Result<AuditQueries['list']>['items'][number],
      Omit<AuditEventView, 'riskLevel'> & {
        riskLevel: string | null;
      }
    >();
    sameShape<Item<Result<AuditQueries['incomplete']>>, IncompleteCall>();
    sameShape<AuditLibVerification, Verification>();
    sameShape<AuditLibTenantVerification, TenantVerification>();
    sameShape<StoredCheckpoint, Checkpoint>();
    sameShape<Result<AuditQueries['checkpointsOf']>, CheckpointExport>();
    // An index signature would switch off excess-property checks for every client.
    expectTypeOf<keyof AuditEventView>().toEqualTypeOf<FieldsOf<ApiAuditEvent>>();
  });

  it('stats and the error envelope', () => {
    sameShape<Result<StatsService['stats']>, Stats>();
    expectTypeOf<Stats['buckets'][number]['p95Ms']>().toEqualTypeOf<number>();
    sameShape<ToolkitErrorEnvelope, ErrorEnvelope>();
  });

  it("the Zod-free rule types are the schemas' types", () => {
    expectTypeOf<z.output<typeof bindingToolSchema>>().toEqualTypeOf<BindingTool>();
    expectTypeOf<z.output<typeof bindingDiffSchema>>().toEqualTypeOf<BindingDiff>();
  });

  it('the word lists are the ones the libs use', () => {
    expect(AUDIT_EVENT_TYPES).toEqual(AUDIT_LIB_EVENT_TYPES);
    expect(AUTH_ROLES).toBe(ROLES);
  });
});
