import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from '../constants.js';
import { APPROVAL_MODES, type ApprovalMode } from '../definition/approval-policy.js';
import { annotatePiClasses, markedFields, piClassesOf } from '../definition/sensitive.js';
import { RISK_LEVELS, type ToolDeclaration, type ToolSchema } from '../definition/tool-definition.js';
import { compileSchema, type CompiledSchema } from '../schema/compiled-schema.js';
import { SchemaExportError } from '../schema/json-schema.js';
import { schemaKind } from '../schema/schema-kind.js';
import { canonicalJson, sha256Hex } from '../util/canonical-json.js';
import type { NormalizedRisk, RegisteredContract } from './registered-contract.js';

/** A contract without implementations yet, or the problems that keep it from being one. */
export type ContractCheck =
  { ok: true; contract: Omit<RegisteredContract, 'implementations'> } | { ok: false; problems: string[] };

function normalizeApproval(
  decl: ToolDeclaration,
  problems: string[],
): { mode: ApprovalMode; prompt?: (args: { input: any }) => string } {
  const raw = decl.approval as { mode?: unknown; request?: { mode?: unknown }; prompt?: unknown } | undefined;
  let mode: unknown = 'never';
  let prompt: ((args: { input: any }) => string) | undefined;
  if (raw && 'request' in raw) {
    mode = raw.request?.mode;
    if (raw.prompt !== undefined && typeof raw.prompt !== 'function')
      problems.push('approval.prompt must be a function');
    prompt = raw.prompt as typeof prompt;
  } else if (raw) {
    mode = raw.mode;
  } else if (decl.risk?.approvalRequired) {
    mode = 'always';
  }
  if (!APPROVAL_MODES.includes(mode as ApprovalMode)) {
    problems.push(`approval must be never(), once() or always(), got ${JSON.stringify(mode)}`);
    return { mode: 'never' };
  }
  return { mode: mode as ApprovalMode, prompt };
}

function normalizeRisk(decl: ToolDeclaration, mode: ApprovalMode, problems: string[]): NormalizedRisk {
  const risk = decl.risk;
  if (!risk || !RISK_LEVELS.includes(risk.level)) {
    problems.push('risk.level is required and must be one of L0, L1, L2, L3');
    return { level: 'L0', approvalRequired: false, dataDomains: [] };
  }
  if (risk.approvalRequired === false && mode !== 'never') {
    problems.push(`risk.approvalRequired is false but the approval policy is ${mode}()`);
  }
  if (risk.level === 'L3' && mode !== 'always') {
    problems.push('an L3 tool needs approval on every call: declare approval: always()');
  }
  if (risk.level === 'L0' && mode !== 'never') {
    problems.push('an L0 tool is read-only and non-sensitive; raise its risk level if it needs approval');
  }
  if (
    risk.dataDomains !== undefined &&
    (!Array.isArray(risk.dataDomains) || risk.dataDomains.some((d) => typeof d !== 'string'))
  ) {
    problems.push('risk.dataDomains must be an array of strings');
  }
  if (
    risk.estimatedDurationMs !== undefined &&
    !(Number.isFinite(risk.estimatedDurationMs) && risk.estimatedDurationMs >= 0)
  ) {
    problems.push('risk.estimatedDurationMs must be a non-negative number');
  }
  return {
    level: risk.level,
    approvalRequired: mode !== 'never',
    dataDomains: [...(risk.dataDomains ?? [])],
    ...(risk.estimatedDurationMs !== undefined ? { estimatedDurationMs: risk.estimatedDurationMs } : {}),
  };
}

function compileRole(
  schema: ToolSchema | undefined,
  role: 'input' | 'output',
  decl: ToolDeclaration,
  problems: string[],
): CompiledSchema | undefined {
  const field = role === 'input' ? 'inputSchema' : 'outputSchema';
  if (schema === undefined) {
    if (role === 'input')
      problems.push('inputSchema is required (use z.object({}) for a tool without parameters)');
    return undefined;
  }
  const kind = schemaKind(schema);
  if (!kind) {
    problems.push(`${field} must be a Zod schema or a JSON Schema object`);
    return undefined;
  }
  if (kind === 'json' && role === 'input' && !decl.dynamic) {
    problems.push('inputSchema is a plain JSON Schema: write it with Zod, or mark the tool dynamic: true');
    return undefined;
  }
  try {
    const compiled = compileSchema(schema, role);
    if (role === 'input' && compiled.jsonSchema.type !== 'object') {
      problems.push('inputSchema must describe an object (z.object({...}))');
    }
    return compiled;
  } catch (err) {
    if (err instanceof SchemaExportError) {
      problems.push(`${field} ${err.message}`);
      return undefined;
    }
    throw err;
  }
}

function checkOptionalFunctions(decl: ToolDeclaration, problems: string[]): void {
  for (const key of ['approvalKey', 'toModelOutput'] as const) {
    if (decl[key] !== undefined && typeof decl[key] !== 'function')
      problems.push(`${key} must be a function`);
  }
  if (
    decl.endsTurn !== undefined &&
    typeof decl.endsTurn !== 'boolean' &&
    typeof decl.endsTurn !== 'function'
  ) {
    problems.push('endsTurn must be a boolean or a function of the output');
  }
  for (const key of ['deferred', 'availableInSubagents', 'dynamic'] as const) {
    if (decl[key] !== undefined && typeof decl[key] !== 'boolean') problems.push(`${key} must be a boolean`);
  }
  const label = decl.label as Record<string, unknown> | undefined;
  if (label !== undefined) {
    if (typeof label !== 'object' || label === null)
      problems.push('label must be an object { start, delta?, complete? }');
    else {
      if (label.start !== undefined && typeof label.start !== 'string' && typeof label.start !== 'function')
        problems.push('label.start must be a string or a function');
      for (const k of ['delta', 'complete'])
        if (label[k] !== undefined && typeof label[k] !== 'function')
          problems.push(`label.${k} must be a function`);
    }
  }
}

/** Options of `checkContract` for contracts built outside the registry. */
export interface ContractCheckOptions {
  /**
   * The name rule, when not the registry's: imported upstream tools are named `<server>__<tool>`,
   * a double underscore registry tools cannot have, so the two never collide.
   */
  readonly namePattern?: RegExp;
}

/**
 * Checks a declaration against every boot rule and compiles it. Problems are returned, not thrown,
 * so one boot reports every bad tool at once.
 */
export function checkContract(decl: ToolDeclaration, options: ContractCheckOptions = {}): ContractCheck {
  const problems: string[] = [];
  if (
    typeof decl.name !== 'string' ||
    !(options.namePattern ?? TOOL_NAME_PATTERN).test(decl.name) ||
    decl.name.length > MAX_TOOL_NAME_LENGTH
  ) {
    problems.push(
      `name must be snake_case (a-z, 0-9, single underscores) and at most ${MAX_TOOL_NAME_LENGTH} characters`,
    );
  }
  if (typeof decl.description !== 'string' || !decl.description.trim()) {
    problems.push('description must not be empty: say what the tool does and when not to use it');
  }
  const timeoutMs = decl.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
    problems.push(
      `timeoutMs must be a whole number of milliseconds between 1 and ${MAX_TIMEOUT_MS}, got ${String(decl.timeoutMs)}`,
    );
  }
  const approval = normalizeApproval(decl, problems);
  const risk = normalizeRisk(decl, approval.mode, problems);
  const input = compileRole(decl.inputSchema, 'input', decl, problems);
  const output = compileRole(decl.outputSchema, 'output', decl, problems);
  checkOptionalFunctions(decl, problems);
  const keyFields = checkKeyFields(decl, input?.jsonSchema, problems);
  if (problems.length || !input) return { ok: false, problems };
  // The classes are part of the contract: exported schemas say them, and the hash covers them.
  const inputFields = markedFields(decl.inputSchema);
  const outputFields = markedFields(decl.outputSchema);
  annotatePiClasses(input.jsonSchema, inputFields);
  if (output) annotatePiClasses(output.jsonSchema, outputFields);

  const contractHash = sha256Hex(
    canonicalJson({
      name: decl.name,
      description: decl.description,
      inputSchema: input.jsonSchema,
      outputSchema: output?.jsonSchema ?? null,
      risk,
      timeoutMs,
      approval: approval.mode,
      deferred: decl.deferred ?? false,
      availableInSubagents: decl.availableInSubagents ?? true,
      endsTurn: typeof decl.endsTurn === 'function' ? 'fn' : (decl.endsTurn ?? false),
    }),
  );
  return {
    ok: true,
    contract: {
      name: decl.name,
      description: decl.description.trim(),
      input,
      output,
      dynamic: decl.dynamic ?? false,
      risk,
      timeoutMs,
      approval,
      approvalKey: decl.approvalKey,
      toModelOutput: decl.toModelOutput,
      endsTurn: decl.endsTurn ?? false,
      deferred: decl.deferred ?? false,
      availableInSubagents: decl.availableInSubagents ?? true,
      label: decl.label,
      contractHash,
      sensitivePaths: inputFields,
      outputSensitivePaths: outputFields,
      piClasses: piClassesOf(inputFields, outputFields),
      redactNames: decl.redactNames === true,
      keyFields,
      declaration: decl,
    },
  };
}

/**
 * `keyFields` as declared, each a property of the input object: a misspelt name would leave every
 * call without a target, and nobody would notice until an auditor searched.
 */
function checkKeyFields(decl: ToolDeclaration, inputSchema: unknown, problems: string[]): readonly string[] {
  const fields = decl.keyFields ?? [];
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== 'string' || !f)) {
    problems.push('keyFields must be a list of input field names');
    return [];
  }
  const properties = (inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!properties) return fields;
  for (const f of fields)
    if (!Object.hasOwn(properties, f)) problems.push(`keyFields names ${f}, which is not an input field`);
  return fields;
}
