/** Limits of what the gateway reads from outside, in one place (CONTRACT.md, "Limits"). */

/**
 * The largest answer read from an upstream tool source (an MCP message, an OpenAPI call's answer, a
 * connector's answer): a larger one is refused, not truncated, and reading stops at this size.
 */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/**
 * The most read of a notification peer's answer (a webhook, an IM robot, Feishu's token and
 * message APIs): their answers are a few hundred bytes of JSON.
 */
export const MAX_PEER_ANSWER_BYTES = 64 * 1024;

/** Redirect statuses: never followed (the admin gives the final URL; credentials stay where sent). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
