import { createHmac } from 'node:crypto';
import type { SiemRecord } from './siem-record.js';

/** The header a receiver checks a batch's signature in: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'x-toolgate-signature';

/** A batch as JSON lines, or as Splunk HEC event objects one per line (HEC takes them concatenated). */
export function httpsBody(
  records: readonly SiemRecord[],
  format: 'jsonl' | 'splunk-hec',
  host: string,
): string {
  const lines = records.map((r) =>
    format === 'jsonl'
      ? JSON.stringify(r)
      : JSON.stringify({
          time: Date.parse(r.occurredAt) / 1000,
          host,
          source: 'toolgate',
          sourcetype: 'toolgate:audit',
          event: r,
        }),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `X-Toolgate-Signature`: HMAC-SHA256 under the sink's secret over `<t>.<body>`, `t` the unix time
 * in seconds, so a receiver can refuse a replayed old batch as well as a forged one.
 */
export function signatureHeader(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${mac}`;
}
