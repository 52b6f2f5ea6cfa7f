import type { UpstreamToolDefinition } from '../sources/tool-source.js';
import type { OpenApiDocument } from './openapi-document.js';
import { MAX_OPERATIONS } from './openapi-limits.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import { SchemaConverter, SchemaTooComplexError } from './openapi-schema.js';
import { snakeName, UniqueNames } from './tool-names.js';
import { isJsonMediaType } from './media-types.js';

/** The HTTP methods that become tools, in the order a path item lists them. */
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;
type Method = (typeof METHODS)[number];

/**
 * Header parameters a document may not turn into arguments: credentials and routing are the
 * gateway's (configured headers), framing is fetch's. OpenAPI itself ignores Accept,
 * Content-Type and Authorization header parameters.
 */
export const RESERVED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'accept',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'idempotency-key',
]);

/** One parameter of an operation and the argument that carries it. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  /** The input property holding its value (the name, unless two locations share it). */
  readonly argName: string;
  readonly required: boolean;
  /** The serialization style, the location's default when the document names none (query: form, else simple). */
  readonly style: string;
  /** Whether arrays and objects explode; the style's default when the document says nothing (form: true). */
  readonly explode: boolean;
  /** Sent as JSON text (a parameter described with `content` rather than `schema`). */
  readonly json: boolean;
}

/** How to turn one tool call into one HTTP request. */
export interface OperationPlan {
  readonly method: Uppercase<Method>;
  /** The path template as the document spells it, e.g. `/customers/{id}`. */
  readonly path: string;
  readonly parameters: readonly OperationParameter[];
  /** The JSON request body, in the input property `argName`. */
  readonly body?: { readonly argName: string; readonly required: boolean; readonly contentType: string };
}

/** An operation as a tool: what `tools/list` shows, and how a call reaches the service. */
export interface OpenApiOperation {
  readonly definition: UpstreamToolDefinition;
  readonly plan: OperationPlan;
}

/** An operation left out, and why (shown to the admin who imports the document). */
export interface SkippedOperation {
  readonly method: string;
  readonly path: string;
  readonly reason: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Maps every operation of a validated, dereferenced document to a tool, in document order. An
 * operation whose request body has no JSON form is skipped (multipart and form bodies are not
 * supported); one whose schemas are too large refuses the whole document.
 */
export function mapOperations(document: OpenApiDocument): {
  operations: OpenApiOperation[];
  skipped: SkippedOperation[];
} {
  const converter = new SchemaConverter(document, document.openapi.startsWith('3.0.'));
  const names = new UniqueNames();
  const operations: OpenApiOperation[] = [];
  const skipped: SkippedOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      if (operations.length >= MAX_OPERATIONS) {
        throw new OpenApiSourceError('too_large', `The document has more than ${MAX_OPERATIONS} operations`);
      }
      try {
        const mapped = mapOperation(converter, names, method, path, item, operation);
        if ('reason' in mapped) skipped.push(mapped);
        else operations.push(mapped);
      } catch (err) {
        if (!(err instanceof SchemaTooComplexError)) throw err;
        throw new OpenApiSourceError('too_large', `${method.toUpperCase()} ${path}: ${err.message}`);
      }
    }
  }
  return { operations, skipped };
}

function mapOperation(
  converter: SchemaConverter,
  names: UniqueNames,
  method: Method,
  path: string,
  item: Json,
  operation: Json,
): OpenApiOperation | SkippedOperation {
  const label = `${method.toUpperCase()} ${path}`;
  const body = jsonBody(operation.requestBody);
  if (body === 'unsupported') {
    return { method: method.toUpperCase(), path, reason: 'its required request body has no JSON media type' };
  }
  const properties = new Map<string, unknown>();
  const required: string[] = [];
  const claim = (preferred: string, fallback: string) => {
    const argName = properties.has(preferred) ? fallback : preferred;
    if (properties.has(argName))
      throw new OpenApiSourceError('invalid', `${label}: two inputs named ${argName}`);
    return argName;
  };
  const parameters: OperationParameter[] = [];
  for (const parameter of mergedParameters(item.parameters, operation.parameters)) {
    const where = parameter.in;
    if (where !== 'path' && where !== 'query' && where !== 'header') continue;
    if (where === 'header' && RESERVED_HEADERS.has(parameter.name.toLowerCase())) continue;
    const argName = claim(parameter.name, `${where}_${parameter.name}`);
    const isRequired = where === 'path' || parameter.required === true;
    const contentSchema = isObject(parameter.content) ? Object.values(parameter.content)[0] : undefined;
    const schema = converter.convert(
      parameter.schema ?? (isObject(contentSchema) ? contentSchema.schema : {}),
    );
    properties.set(argName, withDescription(schema, parameter.description));
    if (isRequired) required.push(argName);
    // Defaults spelled out (OpenAPI 3 §4.8.12.4): a document that writes a default it had implied
    // sends the same request, so it pins the same plan.
    const style =
      typeof parameter.style === 'string' ? parameter.style : where === 'query' ? 'form' : 'simple';
    parameters.push({
      name: parameter.name,
      in: where,
      argName,
      required: isRequired,
      style,
      explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
      json: parameter.schema === undefined && contentSchema !== undefined,
    });
  }
  let planBody: OperationPlan['body'];
  if (body) {
    const argName = claim('body', 'request_body');
    properties.set(argName, withDescription(converter.convert(body.schema), body.description));
    if (body.required) required.push(argName);
    planBody = { argName, required: body.required, contentType: body.contentType };
  }
  const inputSchema: Json = { type: 'object', properties: Object.fromEntries(properties) };
  if (required.length) inputSchema.required = required;
  inputSchema.additionalProperties = false;
  const definition: UpstreamToolDefinition = {
    name: names.claim(
      snakeName(typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`),
    ),
    ...(typeof operation.summary === 'string' && operation.summary ? { title: operation.summary } : {}),
    description: describe(operation, label),
    inputSchema,
    ...outputSchemaOf(converter, operation.responses),
    annotations: annotationsFor(method),
  };
  return {
    definition,
    plan: { method: method.toUpperCase() as Uppercase<Method>, path, parameters, body: planBody },
  };
}

/** Path-level parameters overridden by the operation's own (same name and location). */
type ParameterObject = Json & { readonly name: string; readonly in: string };

function mergedParameters(pathLevel: unknown, operationLevel: unknown): ParameterObject[] {
  const merged = new Map<string, ParameterObject>();
  for (const list of [pathLevel, operationLevel]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (isObject(parameter) && typeof parameter.name === 'string' && typeof parameter.in === 'string') {
        merged.set(`${parameter.in}\u0000${parameter.name}`, parameter as ParameterObject);
      }
    }
  }
  return [...merged.values()];
}

/** The operation's JSON request body; `unsupported` when it requires a body with no JSON form. */
function jsonBody(
  requestBody: unknown,
):
  | { schema: unknown; required: boolean; contentType: string; description?: string }
  | 'unsupported'
  | undefined {
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const required = requestBody.required === true;
  const entry = Object.entries(requestBody.content).find(([type]) => isJsonMediaType(type));
  if (!entry) return required ? 'unsupported' : undefined;
  const [contentType, media] = entry;
  const description = typeof requestBody.description === 'string' ? requestBody.description : undefined;
  return { schema: isObject(media) ? (media.schema ?? {}) : {}, required, contentType, description };
}

/** The JSON schema of the 200 (else 201) answer, when it describes an object. */
function outputSchemaOf(converter: SchemaConverter, responses: unknown): { outputSchema?: Json } {
  if (!isObject(responses)) return {};
  const response = responses['200'] ?? responses['201'];
  if (!isObject(response) || !isObject(response.content)) return {};
  const media = Object.entries(response.content).find(([type]) => isJsonMediaType(type))?.[1];
  if (!isObject(media) || !isObject(media.schema)) return {};
  const schema = converter.convert(media.schema);
  const isObjectSchema =
    isObject(schema) &&
    (schema.type === 'object' || (schema.type === undefined && isObject(schema.properties)));
  return isObjectSchema ? { outputSchema: schema } : {};
}

function withDescription(schema: unknown, description: unknown): unknown {
  if (typeof description !== 'string' || !description || !isObject(schema) || 'description' in schema)
    return schema;
  return { ...schema, description };
}

function describe(operation: Json, label: string): string {
  const parts = [operation.summary, operation.description].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length ? parts.join('\n\n') : label;
}

/** MCP tool annotations from the HTTP method's semantics (RFC 9110 safe and idempotent methods). */
function annotationsFor(method: Method): Json {
  if (method === 'get' || method === 'head') return { readOnlyHint: true };
  return {
    readOnlyHint: false,
    destructiveHint: method === 'delete',
    idempotentHint: method === 'put' || method === 'delete',
  };
}
