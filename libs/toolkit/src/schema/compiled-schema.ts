import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchemaObject, ToolSchema } from '../definition/tool-definition.js';
import type { InputIssue } from './input-issue.js';
import { fromAjvErrors, fromZodIssues, isInsideUnion } from './issue-normalizers.js';
import { toJsonSchema, type SchemaRole, SchemaExportError } from './json-schema.js';
import { schemaKind, type SchemaKind, type ZodParseResult } from './schema-kind.js';

/** The outcome of checking a value against a compiled schema. */
export type SchemaCheck = { ok: true; value: unknown } | { ok: false; issues: InputIssue[] };

/**
 * A schema ready for the hot path: its exported JSON Schema, and one `check` that applies defaults
 * and reports language-neutral issues.
 */
export interface CompiledSchema {
  readonly kind: SchemaKind;
  readonly jsonSchema: JsonSchemaObject;
  check(value: unknown): SchemaCheck;
}

/**
 * JSON Schema 2020-12 with draft-07 keywords accepted (upgraded beforehand); `format` is an
 * annotation only; unknown keywords are tolerated, unknown types and dangling `$ref`s are not.
 */
export function createAjv(): Ajv2020 {
  return new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    validateFormats: false,
    allowUnionTypes: true,
  });
}

const sharedAjv = createAjv();

/** Compiles a JSON Schema with the platform's validator; throws SchemaExportError when it cannot. */
export function compileJsonSchema(schema: JsonSchemaObject): ValidateFunction {
  try {
    return sharedAjv.compile(schema);
  } catch (err) {
    throw new SchemaExportError(`does not compile as JSON Schema 2020-12 (${(err as Error).message})`);
  }
}

/**
 * Issues one check reports at most. An input with 20,000 unknown keys would otherwise answer a
 * 2 MB list (and hold the event loop building it); the first ones are what a caller fixes first.
 */
export const MAX_REPORTED_ISSUES = 50;

/** The first MAX_REPORTED_ISSUES issues, and one more saying how many were left out. */
function capped(issues: InputIssue[]): InputIssue[] {
  if (issues.length <= MAX_REPORTED_ISSUES) return issues;
  const more = issues.length - MAX_REPORTED_ISSUES;
  return [
    ...issues.slice(0, MAX_REPORTED_ISSUES),
    { kind: 'other', path: [], message: `${more} more problem(s) not listed` },
  ];
}

/** No issues (shared: never written to). */
const NO_ISSUES: InputIssue[] = [];

function compileZod(
  kind: 'zod4' | 'zod3',
  schema: { safeParse(v: unknown): ZodParseResult },
  jsonSchema: JsonSchemaObject,
  role: SchemaRole,
): CompiledSchema {
  // Zod strips unknown keys silently; the exported contract says additionalProperties:false, so the
  // same JSON Schema is run to find them and refuse them by name.
  const contract = role === 'input' ? compileJsonSchema(jsonSchema) : undefined;
  return {
    kind,
    jsonSchema,
    check(value) {
      const parsed = schema.safeParse(value);
      const unknownFields = contract && !contract(value) ? unknownFieldIssues(contract, value) : NO_ISSUES;
      if (parsed.success) {
        return unknownFields.length
          ? { ok: false, issues: capped(unknownFields) }
          : { ok: true, value: parsed.data };
      }
      // Strict Zod objects report unknown keys too; keep the contract's version, which lists the allowed fields.
      const named = new Set(unknownFields.map((i) => i.path.join('\u0000')));
      const zodIssues = fromZodIssues(parsed.error.issues, value).filter(
        (i) => i.kind !== 'unknown_field' || !named.has(i.path.join('\u0000')),
      );
      return { ok: false, issues: capped([...zodIssues, ...unknownFields]) };
    },
  };
}

function unknownFieldIssues(contract: ValidateFunction, value: unknown): InputIssue[] {
  const errors = (contract.errors ?? []).filter(
    (e) =>
      (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') && !isInsideUnion(e),
  );
  return fromAjvErrors(errors, value);
}

function compileJson(jsonSchema: JsonSchemaObject): CompiledSchema {
  const validate = compileJsonSchema(jsonSchema);
  return {
    kind: 'json',
    jsonSchema,
    check(value) {
      if (validate(value)) return { ok: true, value };
      const errors = (validate.errors ?? []).filter((e) => !isInsideUnion(e));
      return {
        ok: false,
        issues: capped(fromAjvErrors(errors.length ? errors : (validate.errors ?? []), value)),
      };
    },
  };
}

/** Compiles any tool schema. Throws SchemaExportError with the reason when it cannot. */
export function compileSchema(schema: ToolSchema, role: SchemaRole): CompiledSchema {
  const kind = schemaKind(schema);
  const jsonSchema = toJsonSchema(schema, role);
  if (kind === 'zod4' || kind === 'zod3') {
    return compileZod(kind, schema as { safeParse(v: unknown): ZodParseResult }, jsonSchema, role);
  }
  return compileJson(jsonSchema);
}
