import type { UpstreamCallPlan } from '../sources/tool-source.js';
import type { OperationPlan } from './openapi-operations.js';

/**
 * Everything that decides the HTTP request a call of an operation sends, as plain JSON for the
 * pinned definition and its fingerprint (ADR 016, amendment): method, where calls go (origin and
 * base path — not the base URL's query, which may hold a credential), the path template, each
 * parameter's location, argument and serialization, and the body's media type. Parameters are
 * listed by location and name, so reordering them in the document changes nothing.
 */
export function callPlanOf(plan: OperationPlan, baseUrl: URL): UpstreamCallPlan {
  const parameters = [...plan.parameters]
    .sort((a, b) => (a.in === b.in ? compare(a.name, b.name) : compare(a.in, b.in)))
    .map((p) => ({
      name: p.name,
      in: p.in,
      argName: p.argName,
      required: p.required,
      style: p.style,
      explode: p.explode,
      json: p.json,
    }));
  return {
    method: plan.method,
    baseUrl: `${baseUrl.origin}${baseUrl.pathname}`,
    path: plan.path,
    parameters,
    body: plan.body
      ? { argName: plan.body.argName, required: plan.body.required, contentType: plan.body.contentType }
      : null,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
