import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import {
  createEgressFetch,
  egressDispatcher,
  readTextPrefix,
  type EgressFetch,
  type EgressPolicy,
} from '@toolgate/egress';
import type { Dispatcher } from 'undici';
import { httpsBody, SIGNATURE_HEADER, signatureHeader } from '../formats/https-body.js';
import type { SiemRecord } from '../formats/siem-record.js';
import type { HttpsSinkOptions } from '../siem.options.js';
import { reasonOf, type BatchRef, type SendOutcome, type SinkTransport } from './sink-transport.js';

/** Bytes of a receiver's answer read at most (its text goes into the failure reason). */
const MAX_ANSWER_BYTES = 2_048;
/** Answers that say "later", not "never": retried without counting toward a split. */
const TRY_LATER = new Set([408, 425, 429]);

/**
 * HTTPS POSTs of JSON lines (or Splunk HEC events) through the egress policy (ADR 026): the URL's
 * addresses checked and pinned, no redirects, the answer bounded. A 2xx delivers the batch; a
 * 4xx refuses it for good (but 408/425/429); a 5xx or no answer fails it. `Idempotency-Key` names
 * the batch (sink, tenant, seq range), so a receiver can drop a batch resent after a lost answer.
 */
export class HttpsTransport implements SinkTransport {
  private readonly dispatcher: Dispatcher;
  private readonly fetch: EgressFetch;
  private readonly host = hostname();

  constructor(
    private readonly options: HttpsSinkOptions,
    policy: EgressPolicy,
  ) {
    this.dispatcher = egressDispatcher(policy, options.tls);
    this.fetch = createEgressFetch(policy, { dispatcher: this.dispatcher, maxResponseBytes: 65_536 });
  }

  async send(records: readonly SiemRecord[], batch: BatchRef): Promise<SendOutcome> {
    const body = httpsBody(records, this.options.format, this.host);
    const headers: Record<string, string> = {
      'content-type': this.options.format === 'jsonl' ? 'application/x-ndjson' : 'application/json',
      'idempotency-key': createHash('sha256')
        .update(`${batch.sink}\n${batch.tenantId}\n${batch.fromSeq}\n${batch.toSeq}`)
        .digest('hex'),
      'x-toolgate-batch': `${batch.tenantId}:${batch.fromSeq}-${batch.toSeq}`,
    };
    if (this.options.hmacSecret)
      headers[SIGNATURE_HEADER] = signatureHeader(this.options.hmacSecret, body, new Date());
    if (this.options.splunkToken) headers.authorization = `Splunk ${this.options.splunkToken}`;
    let response: Response;
    try {
      response = await this.fetch(this.options.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      return { kind: 'failed', answered: false, reason: reasonOf(err) };
    }
    const text = await readTextPrefix(response, MAX_ANSWER_BYTES).catch(() => '');
    if (response.ok) return { kind: 'delivered' };
    const reason = `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
    if (response.status >= 500 || TRY_LATER.has(response.status))
      return { kind: 'failed', answered: !TRY_LATER.has(response.status), reason };
    return { kind: 'refused', reason };
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}
