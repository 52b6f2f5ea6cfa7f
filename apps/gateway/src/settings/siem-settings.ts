import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DEFAULT_SIEM_OPTIONS,
  DEFAULT_SINK_OPTIONS,
  type SiemOptions,
  type SinkOptions,
} from '@toolgate/audit';
import { SettingsError } from './platform-file.js';
import type { SiemFile } from './siem-file.js';

type FileSink = NonNullable<SiemFile['sinks']>[number];
type FileTls = NonNullable<FileSink['tls']>;

function readPem(path: string | undefined, what: string): string | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(resolve(path), 'utf8');
  } catch (err) {
    throw new SettingsError(`${what}: cannot read ${path} (${(err as Error).message})`);
  }
}

function tlsOf(sink: string, tls: FileTls | undefined) {
  if (!tls) return undefined;
  const at = `siem.sinks.${sink}.tls`;
  return {
    ca: readPem(tls.caFile, `${at}.caFile`),
    cert: readPem(tls.certFile, `${at}.certFile`),
    key: readPem(tls.keyFile, `${at}.keyFile`),
    serverName: tls.serverName,
  };
}

function secretOf(env: NodeJS.ProcessEnv, name: string | undefined, at: string): string | undefined {
  if (!name) return undefined;
  const value = env[name];
  if (!value) throw new SettingsError(`${at} names ${name}, which is not set in the environment`);
  return value;
}

function sinkOf(s: FileSink, env: NodeJS.ProcessEnv): SinkOptions {
  const common = {
    name: s.name,
    batchSize: s.batchSize ?? DEFAULT_SINK_OPTIONS.batchSize,
    maxRecordBytes: s.maxRecordBytes ?? DEFAULT_SINK_OPTIONS.maxRecordBytes,
    timeoutMs: s.timeoutMs ?? DEFAULT_SINK_OPTIONS.timeoutMs,
    tls: tlsOf(s.name, s.tls),
  };
  if (s.kind === 'syslog')
    return {
      kind: 'syslog',
      ...common,
      host: s.host,
      port: s.port,
      payload: s.payload ?? DEFAULT_SINK_OPTIONS.payload,
      facility: s.facility ?? DEFAULT_SINK_OPTIONS.facility,
      structuredDataId: s.structuredDataId ?? DEFAULT_SINK_OPTIONS.structuredDataId,
    };
  return {
    kind: 'https',
    ...common,
    url: s.url,
    format: s.format ?? DEFAULT_SINK_OPTIONS.format,
    hmacSecret: secretOf(env, s.hmacSecretEnv, `siem.sinks.${s.name}.hmacSecretEnv`),
    splunkToken: secretOf(env, s.splunkTokenEnv, `siem.sinks.${s.name}.splunkTokenEnv`),
  };
}

/** The forwarder's options from `siem:` of the settings file (secrets from the environment, PEMs from files). */
export function siemSettings(file: SiemFile | undefined, env: NodeJS.ProcessEnv): SiemOptions {
  const { sinks = [], ...rest } = file ?? {};
  return { ...DEFAULT_SIEM_OPTIONS, ...rest, sinks: sinks.map((s) => sinkOf(s, env)) };
}
