import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream } from 'pino';
import { PinoLogger } from 'nestjs-pino';
import pinoPretty from 'pino-pretty';

/** How log lines are written: one JSON object a line, or readable lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * Contexts of Nest's own start-up chatter (a line per module initialized and per route mapped: about
 * 120 lines a boot). They are logged at `debug`, so a boot at `info` shows what matters and
 * `TOOLGATE_LOG_LEVEL=debug` still shows them.
 */
const NEST_BOOT_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/**
 * Where the gateway's logs go. `json`: undefined, pino's own stdout stream (asynchronous; what a log
 * collector reads). `pretty`: pino-pretty in this thread (no worker), one line per event with time,
 * level and context, coloured on a terminal; written synchronously. `destination`: stdout unless
 * given (tests).
 */
export function logDestination(
  format: LogFormat,
  destination?: NodeJS.WritableStream,
): DestinationStream | undefined {
  if (format === 'json') return undefined;
  return pinoPretty({
    ...(destination ? { destination } : {}),
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}{context}: {end}{msg}',
    singleLine: true,
  });
}

/**
 * Writes `text` (the start-up banner) to stdout after every log line written so far. `pretty` lines
 * are written synchronously, so stdout itself is in order; pino's JSON stream writes asynchronously,
 * so the text goes through that stream, behind the lines it still holds.
 */
export function writeAfterLogs(text: string, format: LogFormat): void {
  const stream = format === 'json' ? jsonStream() : undefined;
  if (stream) stream.write(text);
  else process.stdout.write(text);
}

function jsonStream(): DestinationStream | undefined {
  const root = PinoLogger.root as unknown as Record<symbol, DestinationStream | undefined> | undefined;
  return root?.[pino.symbols.streamSym];
}

/**
 * The logger Nest itself writes through: nestjs-pino's, with Nest's start-up chatter moved to
 * `debug` (NEST_BOOT_CONTEXTS). Everything else passes unchanged.
 */
export class QuietBootLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context))
      this.inner.debug?.(message, ...optionalParams);
    else this.inner.log(message, ...optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.error(message, ...optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.warn(message, ...optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.debug?.(message, ...optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.verbose?.(message, ...optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.fatal?.(message, ...optionalParams);
  }
}
