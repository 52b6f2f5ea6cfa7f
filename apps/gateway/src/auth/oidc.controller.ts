import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { LOGIN_STATE_COOKIE, OidcSignInService, Public, readCookie, SessionService } from '@toolgate/auth';
import { signedOutSchema, signInProvidersSchema } from '@toolgate/contract';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';
import { CONSOLE_HOME, CONSOLE_NO_ACCESS, consoleSignInError, OIDC_LOGIN_PATH } from './oidc-paths.js';
import {
  clearedLoginStateCookie,
  clearedSessionCookies,
  loginStateCookie,
  sessionCookie,
} from './session-cookies.js';

/** A started sign-in's browser cookie lives as long as the server keeps its state (10 min). */
const LOGIN_STATE_MAX_AGE_S = 600;

/**
 * People's sign-in to the console through the company's OpenID provider (ADR 021): login sends
 * the browser to the IdP, the callback turns the answer into a session cookie (or the no-access
 * page), logout ends the session. The redirects are for browsers, so they are not in OpenAPI.
 */
@ApiTags('auth')
@Controller('v1/auth')
export class OidcController {
  constructor(
    private readonly oidc: OidcSignInService,
    private readonly sessions: SessionService,
  ) {}

  @Public()
  @Get('providers')
  @ApiOperation({
    operationId: 'getSignInProviders',
    summary: 'How people sign in to the console',
    description:
      'The configured OpenID provider’s display name and the login URL the browser goes to, or null when people cannot sign in. No key needed.',
    security: [],
  })
  @ApiEnvelope(signInProvidersSchema, { public: true })
  providers() {
    const displayName = this.oidc.displayName;
    return ok({ oidc: displayName ? { displayName, loginUrl: OIDC_LOGIN_PATH } : null });
  }

  @Public()
  @Get('oidc/login')
  @ApiExcludeEndpoint()
  async login(@Res() reply: FastifyReply) {
    if (!this.oidc.displayName)
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: 'OIDC sign-in' } });
    const { authorizationUrl, state } = await this.oidc.begin();
    const secure = this.oidc.secureCookies;
    return reply
      .header('set-cookie', loginStateCookie(state, LOGIN_STATE_MAX_AGE_S, secure))
      .header('cache-control', 'no-store')
      .redirect(authorizationUrl, 302);
  }

  @Public()
  @Get('oidc/callback')
  @ApiExcludeEndpoint()
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const secure = this.oidc.secureCookies;
    const cookies: string[] = [clearedLoginStateCookie(secure)];
    const location = await this.finishSignIn(request, cookies);
    return reply.header('set-cookie', cookies).header('cache-control', 'no-store').redirect(location, 302);
  }

  @Post('logout')
  @HttpCode(200)
  @ApiSecurity('session')
  @ApiOperation({
    operationId: 'logout',
    summary: 'End the browser session',
    description: 'A signed-in person (with `X-CSRF-Token`) ends the session; the cookie is cleared.',
  })
  @ApiEnvelope(signedOutSchema)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.end(this.sessions.sessionIdIn(request.headers.cookie), {
      sourceAddress: request.ip,
    });
    void reply.header(
      'set-cookie',
      clearedSessionCookies(this.oidc.displayName ? this.oidc.secureCookies : false),
    );
    return ok({ signedOut: true as const });
  }

  /** Where the browser goes after the callback; pushes the session cookie when one starts. */
  private async finishSignIn(request: FastifyRequest, cookies: string[]): Promise<string> {
    // The IdP's redirect carries its own query; the rest of the URL is the configured redirect URL,
    // never this request's Host header.
    const query = request.url.slice(request.url.indexOf('?') + 1 || request.url.length);
    if (new URLSearchParams(query).has('error')) return consoleSignInError('idp_error');
    try {
      const result = await this.oidc.complete(
        this.oidc.callbackUrl(query),
        readCookie(request.headers.cookie, LOGIN_STATE_COOKIE),
        { sourceAddress: request.ip },
      );
      if (result.kind === 'no_access') return CONSOLE_NO_ACCESS;
      cookies.push(
        sessionCookie(result.session.sessionId, result.session.expiresAt, this.oidc.secureCookies),
      );
      return CONSOLE_HOME;
    } catch (err) {
      if (err instanceof ToolgateError && err.code === ErrorCode.UNAUTHENTICATED)
        return consoleSignInError('refused');
      if (err instanceof ToolgateError && err.code === ErrorCode.NOT_READY)
        return consoleSignInError('unreachable');
      // dengbao3: the person would hold two separated administrator roles (ADR 039).
      if (err instanceof ToolgateError && err.code === ErrorCode.ROLES_CONFLICT)
        return consoleSignInError('roles_conflict');
      throw err;
    }
  }
}
