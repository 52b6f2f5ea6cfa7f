import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import {
  createEgressFetch,
  egressDispatcher,
  type EgressFetch,
  type EgressFetchOptions,
} from './egress-fetch.js';
import { EgressPolicy } from './egress-policy.js';
import { EGRESS_OPTIONS, type EgressOptions } from './egress.options.js';

/**
 * The platform's egress policy in the running gateway: every request to a URL a tenant chose
 * (upstream tool sources, notification channels) goes out through `fetch` (or `fetchWith`), and a
 * URL is checked before it is stored with `check`. The gateway's own port is refused once it listens.
 */
@Injectable()
export class Egress implements OnApplicationShutdown {
  readonly policy: EgressPolicy;
  /** Answers bounded by MAX_ANSWER_BYTES. */
  readonly fetch: EgressFetch;
  private readonly dispatcher: Dispatcher;

  constructor(@Inject(EGRESS_OPTIONS) options: EgressOptions, @Optional() adapters?: HttpAdapterHost) {
    this.policy = new EgressPolicy(options, () => listeningPorts(adapters));
    this.dispatcher = egressDispatcher(this.policy);
    this.fetch = createEgressFetch(this.policy, { dispatcher: this.dispatcher });
  }

  /** A fetch through the same policy and connections, with its own bound or oversize hook. */
  fetchWith(options: Omit<EgressFetchOptions, 'dispatcher'>): EgressFetch {
    return createEgressFetch(this.policy, { ...options, dispatcher: this.dispatcher });
  }

  /**
   * Whether `url` may be reached at all (scheme, resolved addresses), without sending anything.
   * @throws EgressError
   */
  check(url: string | URL): Promise<void> {
    return this.policy.check(url);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}

/** The port the gateway's HTTP server listens on (none before it listens). */
function listeningPorts(adapters: HttpAdapterHost | undefined): number[] {
  const address = adapters?.httpAdapter?.getHttpServer?.()?.address?.() as
    AddressInfo | string | null | undefined;
  return address && typeof address === 'object' ? [address.port] : [];
}
