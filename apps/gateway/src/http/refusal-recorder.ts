import { Injectable, Logger } from '@nestjs/common';
import { AccessDenials } from '@toolgate/audit';
import { ApiKeyService, PRINCIPAL_PROPERTY, type Principal } from '@toolgate/auth';
import { ErrorCode, ToolgateError, type ErrorEnvelope } from '@toolgate/toolkit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../ops/metrics.registry.js';

/** Codes of a refusal that belongs in the key's tenant trail. */
const RECORDED_CODES: ReadonlySet<string> = new Set([
  ErrorCode.FORBIDDEN,
  ErrorCode.DUTIES_SEPARATED,
  ErrorCode.ROLES_CONFLICT,
  ErrorCode.TOOL_NOT_FOUND,
  ErrorCode.NOT_FOUND,
  ErrorCode.RATE_LIMITED,
  ErrorCode.TOOL_QUARANTINED,
  // A blocked transfer abroad (PIPL 第38条): the trail shows who tried to send what where.
  ErrorCode.DATA_EXPORT_BLOCKED,
]);
/** Statuses such a refusal is answered with (409: a quarantined tool): everything else skips the recorder at once. */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 409, 429]);
const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Security log lines per minute, at most: a flood of bad keys is counted, not logged line by line. */
const SECURITY_LINES_PER_MINUTE = 60;

/** The Fastify decoration the error paths find the recorder under (one per gateway). */
const DECORATION = 'toolgateRefusals';

/** What a refusal's answer says. */
export interface RefusalAnswer {
  readonly status: number;
  /** An error envelope (an ok one, which has no code, is never a refusal). */
  readonly envelope: Partial<Pick<ErrorEnvelope, 'code'>> & { readonly details?: Record<string, unknown> };
  /** The call a refusal ended, when one was opened (the invoke route's answers name it). */
  readonly callId?: string;
  /** The tool asked for, when the route's parameters do not name it (an MCP `tools/call`). */
  readonly tool?: string;
}

type Params = Readonly<Record<string, string | undefined>>;

/**
 * Every refusal of a request, recorded (issue 23): for an authenticated key or person, an
 * `access_denied` event in its tenant's trail (AccessDenials); for an unknown or revoked key, a line
 * in the platform security log and `toolgate_auth_failures_total` — never a tenant's chain, which
 * an anonymous caller could otherwise fill. Called from the one error mapping's exits (REST, the
 * invoke route, the MCP route); it returns at once and never changes the answer.
 */
@Injectable()
export class RefusalRecorder {
  private readonly logger = new Logger('Security');
  private readonly denied: Counter<'code'>;
  private readonly authFailures: Counter<'reason'>;
  private linesThisMinute = 0;
  private minute = 0;

  constructor(
    private readonly denials: AccessDenials,
    private readonly keys: ApiKeyService,
    metrics: MetricsRegistry,
  ) {
    this.denied = new Counter({
      name: 'toolgate_access_denied_total',
      help: 'Requests refused for an authenticated key or person, by code (each also in its tenant trail)',
      labelNames: ['code'],
      registers: [metrics.registry],
    });
    this.authFailures = new Counter({
      name: 'toolgate_auth_failures_total',
      help: 'Requests refused for want of a valid credential, by reason (missing, unknown, revoked)',
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
  }

  /** Records a refusal beside its answer; `thrown` is what was thrown, if anything was. */
  note(request: FastifyRequest, answer: RefusalAnswer, thrown?: unknown): void {
    const code = answer.envelope.code;
    if (answer.status === 401) return this.unauthenticated(request);
    if (code === undefined) return;
    // A route nobody serves is Nest's 404, not a refusal of something that exists.
    if (code === ErrorCode.NOT_FOUND && !(thrown instanceof ToolgateError)) return;
    if (!RECORDED_CODES.has(code)) return;
    const known = (request as unknown as Record<string, unknown>)[PRINCIPAL_PROPERTY] as
      Principal | undefined;
    if (known) return this.deny(request, answer, known);
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!secret) return;
    void this.keys.authenticate(secret).then(
      (p) => p && this.deny(request, answer, p),
      () => undefined,
    );
  }

  private deny(request: FastifyRequest, answer: RefusalAnswer, p: Principal): void {
    const params = (request.params ?? {}) as Params;
    const reason = answer.envelope.details?.reason;
    const code = answer.envelope.code!;
    this.denied.inc({ code });
    this.denials.record({
      tenantId: p.tenantId,
      actor: { type: p.principalType, id: p.principalId },
      code,
      status: answer.status,
      route: `${request.method} ${request.routeOptions?.url ?? ''}`,
      path: request.url.split('?')[0]!.slice(0, 300),
      reason: typeof reason === 'string' ? reason : undefined,
      tool: params.toolName ?? answer.tool ?? null,
      agentType: params.agentType ?? null,
      callId: answer.callId ?? null,
    });
  }

  private unauthenticated(request: FastifyRequest): void {
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!secret) {
      this.authFailures.inc({ reason: 'missing' });
      return;
    }
    void this.keys.refusedKeyStatus(secret).then(
      (reason) => {
        this.authFailures.inc({ reason });
        this.securityLine(request, reason);
      },
      () => this.authFailures.inc({ reason: 'unknown' }),
    );
  }

  private securityLine(request: FastifyRequest, reason: 'revoked' | 'unknown'): void {
    const minute = Math.floor(Date.now() / 60_000);
    if (minute !== this.minute) [this.minute, this.linesThisMinute] = [minute, 0];
    if (++this.linesThisMinute > SECURITY_LINES_PER_MINUTE) return;
    // Never the secret: its reason, where it was sent from and to.
    this.logger.warn(
      `refused a ${reason} API key: ${request.method} ${request.url.split('?')[0]} from ${request.ip} (request ${request.id})`,
    );
  }
}

/** Makes `recorder` the one `noteRefusal` finds for requests of `fastify`. */
export function installRefusalRecorder(fastify: FastifyInstance, recorder: RefusalRecorder): void {
  fastify.decorate<RefusalRecorder>(DECORATION, recorder);
}

/** Hands a refusal to the gateway's recorder, if one is installed (a bare Fastify in a test has none). */
export function noteRefusal(request: FastifyRequest, answer: RefusalAnswer, thrown?: unknown): void {
  if (!REFUSAL_STATUSES.has(answer.status)) return;
  const recorder = (request.server as unknown as Record<string, RefusalRecorder | undefined>)?.[DECORATION];
  try {
    recorder?.note(request, answer, thrown);
  } catch {
    // Recording never changes the answer.
  }
}
