/** Payload of a syslog sink's messages. */
export type SyslogPayload = 'json' | 'cef';

/** TLS of a sink: the CA its peer's certificate is checked against, and an optional client certificate. */
export interface SinkTls {
  /** PEM of the CA(s) the receiver's certificate must chain to (default: the system's). */
  readonly ca?: string;
  /** Client certificate and key (PEM), for receivers that authenticate senders (RFC 5425 §5.2). */
  readonly cert?: string;
  readonly key?: string;
  /** The name the certificate must carry, when it is not the host name connected to. */
  readonly serverName?: string;
}

/** Common settings of a sink. */
interface SinkBase {
  /** Stable name: the key of the sink's cursors, lease and dead letters. Renaming starts from the beginning. */
  readonly name: string;
  /** Events per batch (one HTTP request, or one connection's worth of syslog frames). */
  readonly batchSize: number;
  /**
   * A record longer than this (bytes of its JSON) carries its `input`, `details` and
   * `outputSummary` as `{truncated, bytes, sha256}`: receivers cap messages (rsyslog: 8 KiB).
   */
  readonly maxRecordBytes: number;
  /** One attempt's time limit (connect, send, and the receiver's answer). */
  readonly timeoutMs: number;
}

/** Syslog RFC 5424 over TCP (RFC 6587 octet counting) or TLS (RFC 5425). */
export interface SyslogSinkOptions extends SinkBase {
  readonly kind: 'syslog';
  readonly host: string;
  readonly port: number;
  /** TLS (RFC 5425) when set; plain TCP otherwise. */
  readonly tls?: SinkTls;
  readonly payload: SyslogPayload;
  /** Facility of every message (13: log audit). */
  readonly facility: number;
  /** SD-ID of the structured data element with the chain fields (`name@<private enterprise number>`). */
  readonly structuredDataId: string;
}

/** HTTPS: JSON lines (or Splunk HEC events), batched, HMAC-SHA256-signed. */
export interface HttpsSinkOptions extends SinkBase {
  readonly kind: 'https';
  readonly url: string;
  /** `jsonl`: one record per line; `splunk-hec`: one HEC event object per line. */
  readonly format: 'jsonl' | 'splunk-hec';
  /** Secret of the `X-Toolgate-Signature` header (HMAC-SHA256 over `t.body`); none: unsigned. */
  readonly hmacSecret?: string;
  /** Splunk HEC token (`Authorization: Splunk <token>`). */
  readonly splunkToken?: string;
  readonly tls?: SinkTls;
}

export type SinkOptions = SyslogSinkOptions | HttpsSinkOptions;

/** Settings of the SIEM forwarder (`siem:` of config/toolgate.yaml). */
export interface SiemOptions {
  readonly sinks: readonly SinkOptions[];
  /** How often the lease holder looks for new events (ms): about the lag of a healthy sink. */
  readonly intervalMs: number;
  /** One gateway forwards per sink; another takes over a lease not renewed this long. */
  readonly leaseMs: number;
  /** The first retry after a failure waits this long, each next one twice as long... */
  readonly retryBaseMs: number;
  /** ...up to this. */
  readonly retryMaxMs: number;
  /**
   * Failures in a row of a batch the receiver answered (HTTP 5xx) before it is split to find the
   * record the receiver cannot take; a refused single record (4xx) is a dead letter at once.
   */
  readonly maxAttempts: number;
  /**
   * Failed attempts in a row after which a sink raises the `siem_sink_failing` audit alarm (等保
   * 2.0 8.1.5.4 d: collection stopped); once per incident, again only after a delivery. 0: never.
   */
  readonly alarmAfterFailures: number;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_SIEM_OPTIONS: Omit<SiemOptions, 'sinks'> = {
  intervalMs: 500,
  leaseMs: 15_000,
  retryBaseMs: 1_000,
  retryMaxMs: 60_000,
  maxAttempts: 8,
  alarmAfterFailures: 5,
};

/** Defaults of each sink's own settings. */
export const DEFAULT_SINK_OPTIONS = {
  batchSize: 200,
  maxRecordBytes: 7_168,
  timeoutMs: 10_000,
  payload: 'json' as SyslogPayload,
  facility: 13,
  // 32473 is the private enterprise number RFC 5612 reserves for documentation: an operator with a
  // number of its own sets it here.
  structuredDataId: 'toolgate@32473',
  format: 'jsonl' as const,
};

export const SIEM_OPTIONS = Symbol('SIEM_OPTIONS');
