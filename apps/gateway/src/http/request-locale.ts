import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DEFAULT_LOCALE, resolveLocale, type Locale } from '@toolgate/toolkit';

/** The request property holding the gateway's default locale (decorated on Fastify requests). */
export const DEFAULT_LOCALE_PROPERTY = 'toolgateDefaultLocale';

/** The language of a request: `Accept-Language` when it names one we speak, else TOOLGATE_LOCALE. */
export function localeOf(request: { headers: Record<string, unknown> } & Record<string, unknown>): Locale {
  const header = request.headers['accept-language'];
  return resolveLocale(
    typeof header === 'string' ? header : undefined,
    (request[DEFAULT_LOCALE_PROPERTY] as Locale) ?? DEFAULT_LOCALE,
  );
}

/** Injects the request's locale. */
export const RequestLocale = createParamDecorator((_data: unknown, ctx: ExecutionContext): Locale =>
  localeOf(ctx.switchToHttp().getRequest()),
);
