import type { ErrorObject } from 'ajv';
import { describeType, valueAtPath, type InputIssue, type IssuePath } from './input-issue.js';

type RawIssue = Record<string, unknown> & { code: string; path: (string | number)[]; message: string };

function subjectOf(origin: unknown): 'length' | 'number' | 'items' | 'other' {
  if (origin === 'string') return 'length';
  if (origin === 'array' || origin === 'set') return 'items';
  if (origin === 'number' || origin === 'int' || origin === 'bigint') return 'number';
  return 'other';
}

function typeIssue(input: unknown, path: IssuePath, expected: string): InputIssue {
  const actual = valueAtPath(input, path);
  if (actual === undefined) return { kind: 'missing', path, expected };
  return { kind: 'type', path, expected, received: describeType(actual) };
}

/** Turns the issues of a Zod 4 or Zod 3 parse into language-neutral issues. */
export function fromZodIssues(rawIssues: readonly unknown[], input: unknown): InputIssue[] {
  const out: InputIssue[] = [];
  for (const raw of rawIssues as RawIssue[]) {
    const path = raw.path.filter((k): k is string | number => typeof k !== 'symbol');
    switch (raw.code) {
      case 'invalid_type':
        out.push(typeIssue(input, path, String(raw.expected)));
        break;
      case 'unrecognized_keys':
        for (const key of (raw.keys as string[]) ?? [])
          out.push({ kind: 'unknown_field', path: [...path, key], allowed: [] });
        break;
      case 'invalid_value': // zod 4: enums and literals
        out.push({ kind: 'value', path, allowed: (raw.values as unknown[]) ?? [] });
        break;
      case 'invalid_enum_value': // zod 3
        out.push({ kind: 'value', path, allowed: (raw.options as unknown[]) ?? [] });
        break;
      case 'invalid_literal': // zod 3
        out.push({ kind: 'value', path, allowed: [raw.expected] });
        break;
      case 'too_small':
      case 'too_big': {
        const min = raw.code === 'too_small';
        const limit = (min ? raw.minimum : raw.maximum) as number | bigint | string;
        out.push({
          kind: 'bound',
          path,
          direction: min ? 'min' : 'max',
          subject: subjectOf(raw.origin ?? raw.type),
          limit: typeof limit === 'bigint' ? limit.toString() : (limit as number | string),
          inclusive: raw.inclusive !== false,
        });
        break;
      }
      case 'invalid_format': // zod 4
        out.push({ kind: 'format', path, format: String(raw.format) });
        break;
      case 'invalid_string': // zod 3
        out.push({
          kind: 'format',
          path,
          format: typeof raw.validation === 'string' ? raw.validation : JSON.stringify(raw.validation),
        });
        break;
      default:
        out.push({ kind: 'other', path, message: raw.message });
    }
  }
  return out;
}

/** A JSON pointer (`/a/0/b`) as a path. Numeric segments of arrays become numbers. */
export function pointerToPath(pointer: string, root: unknown): (string | number)[] {
  if (!pointer) return [];
  const path: (string | number)[] = [];
  let current: unknown = root;
  for (const segment of pointer.slice(1).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    const step: string | number = Array.isArray(current) && /^\d+$/.test(key) ? Number(key) : key;
    path.push(step);
    current =
      current && typeof current === 'object'
        ? (current as Record<string | number, unknown>)[step]
        : undefined;
  }
  return path;
}

/** True for Ajv errors raised inside a union branch, which say nothing on their own. */
export function isInsideUnion(error: ErrorObject): boolean {
  return /\/(anyOf|oneOf)\//.test(error.schemaPath);
}

/** Names the properties a schema node allows, for "unknown field" messages. */
function allowedKeys(parentSchema: unknown): string[] {
  const props = (parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

/** Turns Ajv errors into language-neutral issues. */
export function fromAjvErrors(errors: readonly ErrorObject[], input: unknown): InputIssue[] {
  const out: InputIssue[] = [];
  for (const e of errors) {
    const path = pointerToPath(e.instancePath, input);
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'type':
        out.push(typeIssue(input, path, String(params.type)));
        break;
      case 'required':
        out.push({ kind: 'missing', path: [...path, String(params.missingProperty)], expected: 'a value' });
        break;
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const key = String(params.additionalProperty ?? params.unevaluatedProperty);
        out.push({ kind: 'unknown_field', path: [...path, key], allowed: allowedKeys(e.parentSchema) });
        break;
      }
      case 'enum':
        out.push({ kind: 'value', path, allowed: (params.allowedValues as unknown[]) ?? [] });
        break;
      case 'const':
        out.push({ kind: 'value', path, allowed: [params.allowedValue] });
        break;
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        const min = e.keyword.startsWith('min') || e.keyword === 'exclusiveMinimum';
        const subject = e.keyword.endsWith('Length')
          ? 'length'
          : e.keyword.endsWith('Items')
            ? 'items'
            : 'number';
        out.push({
          kind: 'bound',
          path,
          direction: min ? 'min' : 'max',
          subject,
          limit: params.limit as number,
          inclusive: !e.keyword.startsWith('exclusive'),
        });
        break;
      }
      default:
        out.push({ kind: 'other', path, message: e.message ?? e.keyword });
    }
  }
  return out;
}
