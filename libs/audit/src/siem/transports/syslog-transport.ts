import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { hostname } from 'node:os';
import type { EgressPolicy } from '@toolgate/egress';
import { octetCountedFrame, syslogMessage, type SyslogOrigin } from '../formats/syslog-message.js';
import type { SiemRecord } from '../formats/siem-record.js';
import type { SyslogSinkOptions } from '../siem.options.js';
import { reasonOf, type SendOutcome, type SinkTransport } from './sink-transport.js';

/** Bytes read from a syslog receiver at most per connection: it has nothing to say (RFC 6587). */
const MAX_PEER_BYTES = 4_096;

/**
 * Syslog over TCP (RFC 6587, octet counting) or TLS (RFC 5425). Plain syslog has no
 * acknowledgement, so a batch is delivered on a connection of its own that is then closed from
 * this side: the receiver closes its side only after it has read to our end of stream, so its
 * orderly close says every frame before it was read by the receiving process (a receiver that
 * quits with bytes unread resets the connection instead, and the batch is sent again). The
 * address is the egress policy's (checked and pinned); TLS verifies the certificate by name.
 */
export class SyslogTransport implements SinkTransport {
  private readonly origin: SyslogOrigin;

  constructor(
    private readonly options: SyslogSinkOptions,
    private readonly policy: EgressPolicy,
    productVersion: string,
  ) {
    this.origin = {
      hostname: hostname(),
      appName: 'toolgate',
      procId: String(process.pid),
      facility: options.facility,
      structuredDataId: options.structuredDataId,
      payload: options.payload,
      productVersion,
    };
  }

  /** The frames of a batch, as the receiver will read them. */
  frames(records: readonly SiemRecord[]): Buffer {
    return Buffer.concat(records.map((r) => octetCountedFrame(syslogMessage(r, this.origin))));
  }

  async send(records: readonly SiemRecord[]): Promise<SendOutcome> {
    const data = this.frames(records);
    let address: string;
    try {
      address = (await this.policy.pin(this.options.host, this.options.port)).address;
    } catch (err) {
      return { kind: 'failed', answered: false, reason: reasonOf(err) };
    }
    return new Promise<SendOutcome>((resolve) => {
      const socket = this.connect(address);
      let settled = false;
      let peerBytes = 0;
      let ended = false;
      const done = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve(outcome);
      };
      const timer = setTimeout(
        () =>
          done({
            kind: 'failed',
            answered: false,
            reason: `no orderly close within ${this.options.timeoutMs} ms`,
          }),
        this.options.timeoutMs,
      );
      socket.on('error', (err) => done({ kind: 'failed', answered: false, reason: reasonOf(err) }));
      socket.on('data', (chunk: Buffer) => {
        peerBytes += chunk.length;
        if (peerBytes > MAX_PEER_BYTES)
          done({ kind: 'failed', answered: true, reason: 'the receiver sent data' });
      });
      socket.on('end', () => (ended = true));
      socket.on('close', (hadError) =>
        done(
          !hadError && ended
            ? { kind: 'delivered' }
            : {
                kind: 'failed',
                answered: false,
                reason: 'the connection closed before the receiver read to its end',
              },
        ),
      );
      socket.once(this.options.tls ? 'secureConnect' : 'connect', () => socket.end(data));
    });
  }

  private connect(address: string): Socket {
    const { host, port, tls } = this.options;
    if (!tls) return netConnect({ host: address, port });
    return tlsConnect({
      host: address,
      port,
      // The certificate names the host, never the address it was pinned to (as libs/egress does);
      // SNI carries no IP address (RFC 6066), the check then names the address itself.
      servername: tls.serverName ?? (isIP(host) ? undefined : host),
      ca: tls.ca,
      cert: tls.cert,
      key: tls.key,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    });
  }

  async close(): Promise<void> {}
}
