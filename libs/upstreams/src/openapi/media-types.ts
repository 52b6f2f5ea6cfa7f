// No @toolgate imports here: the parse worker loads this file (see openapi-parse-worker.ts).

/** `application/json` and the `+json` structured syntax suffix (RFC 6839), parameters ignored. */
export function isJsonMediaType(mediaType: string | null | undefined): boolean {
  const essence = (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(essence);
}
