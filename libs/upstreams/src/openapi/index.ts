// OpenAPI 3 services as tool sources: each operation a tool, each call one HTTP request (issue 11).
export { createOpenApiClient } from './openapi-client.js';
export type { OpenApiClientOptions } from './openapi-client.js';
export { mapOperations } from './openapi-operations.js';
export type { OpenApiOperation, OperationPlan, SkippedOperation } from './openapi-operations.js';
export { OpenApiSourceError } from './openapi-source-error.js';
export type { OpenApiSourceFailure } from './openapi-source-error.js';
export { MAX_DOCUMENT_BYTES } from './openapi-limits.js';
