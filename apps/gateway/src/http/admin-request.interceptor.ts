import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuditTrail, AuditUnavailableError, type AdminEvent } from '@toolgate/audit';
import { POWER_KEY, PRINCIPAL_PROPERTY, SeparatedDuties, type Principal } from '@toolgate/auth';
import type { AdminPower } from '@toolgate/contract';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { FastifyRequest } from 'fastify';
import { catchError, mergeMap, throwError, type Observable } from 'rxjs';

/** How much of a request's query string an event keeps. */
const QUERY_KEPT = 500;

/**
 * Under the dengbao3 profile every request to an admin route is an `admin_request` event (等保
 * 2.0 8.1.5: each administrator's acts, the audit administrator's reads included; ADR 039). A read
 * is recorded durably before its answer leaves, so nobody reads the trail unrecorded (the read
 * fails with AUDIT_UNAVAILABLE instead); a change, beside its answer, since the change has its own
 * event committed with it. Failures are recorded with their code. Requests the guard refused never
 * get here: they are `access_denied` events (ADR 033). Off the profile this does nothing.
 */
@Injectable()
export class AdminRequestInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly duties: SeparatedDuties,
    private readonly audit: AuditTrail,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.duties.on || context.getType() !== 'http') return next.handle();
    const power = this.reflector.getAllAndOverride<AdminPower | undefined>(POWER_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = (request as unknown as Record<string, unknown>)[PRINCIPAL_PROPERTY] as
      Principal | undefined;
    if (!power || !principal) return next.handle();
    const read = request.method === 'GET' || request.method === 'HEAD';
    const event = (outcome: 'success' | 'failure', code?: string): AdminEvent => {
      const [path, query] = request.url.split('?', 2);
      return {
        event: 'admin_request',
        tenantId: principal.tenantId,
        actor: { type: principal.principalType, id: principal.principalId },
        status: outcome === 'success' ? 'ok' : 'error',
        code: code ?? null,
        details: {
          outcome,
          power,
          role: principal.role,
          route: `${request.method} ${request.routeOptions?.url ?? ''}`,
          path: path!.slice(0, 300),
          ...(query ? { query: query.slice(0, QUERY_KEPT) } : {}),
          ...(request.ip ? { sourceAddress: request.ip } : {}),
        },
      };
    };
    return next.handle().pipe(
      catchError((err: unknown) => {
        const code = err instanceof ToolgateError ? err.code : ErrorCode.INTERNAL_ERROR;
        this.audit.recordEventually([event('failure', code)]);
        return throwError(() => err);
      }),
      mergeMap(async (answer: unknown) => {
        if (!read) {
          this.audit.recordEventually([event('success')]);
          return answer;
        }
        try {
          await this.audit.record([event('success')]);
        } catch (err) {
          if (!(err instanceof AuditUnavailableError)) throw err;
          throw new ToolgateError(ErrorCode.AUDIT_UNAVAILABLE, { cause: err });
        }
        return answer;
      }),
    );
  }
}
