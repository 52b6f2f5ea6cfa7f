/** The success half of the envelope every tool result and API answer takes. */
export interface OkEnvelope<T = unknown> {
  data: T;
  status: 'ok';
}

/** The failure half: the three fields are always there; the rest only where they mean something. */
export interface ErrorEnvelope {
  error: string;
  code: string;
  suggestedAction: string;
  details?: Record<string, unknown>;
  callId?: string;
  approvalId?: string;
}

/** `{data, status:"ok"}` or `{error, code, suggestedAction}`. */
export type Envelope<T = unknown> = OkEnvelope<T> | ErrorEnvelope;

/** Wraps data in the success envelope. */
export function ok<T>(data: T): OkEnvelope<T> {
  return { data, status: 'ok' };
}

/** Narrows an envelope to its success half. */
export function isOk<T>(envelope: Envelope<T>): envelope is OkEnvelope<T> {
  return (envelope as OkEnvelope<T>).status === 'ok';
}
