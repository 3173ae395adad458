import { createServer } from 'node:net';

/**
 * A currently free TCP port on 127.0.0.1, chosen by the kernel. Like envtest, the port is
 * released before the caller binds it; `start` retries the whole start on a bind race.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
