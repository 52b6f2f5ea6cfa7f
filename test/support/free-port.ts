import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// A port chosen below the kernel's ephemeral range: a port the kernel hands out (listen(0), or the
// local end of any outgoing connection, e.g. a MariaDB client socket) can be taken again by another
// socket between the moment it is reserved and the moment its server listens; seen as EADDRINUSE
// while a gateway started on MariaDB. Ports below the range are only ever taken by an explicit bind.
const LOWEST = 10_000;
const handedOut = new Set<number>();

function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const n = Number(low);
    return Number.isInteger(n) && n > LOWEST + 1_000 ? n : 32_768;
  } catch {
    return 32_768;
  }
}

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A port free on 127.0.0.1 right now and outside the ephemeral range, for a server whose URL must
 * be known before it starts (an IdP's redirect URL, an rsyslog config).
 */
export async function freePort(): Promise<number> {
  const span = ephemeralStart() - LOWEST;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * span);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error('freePort: no free port below the ephemeral range after 200 tries');
}
