import net from 'node:net';

/**
 * A port free on 127.0.0.1 now, for a server a test or bench starts: the kernel picks it (listen on
 * port 0), the caller frees it, and its server takes it moments later. A random number instead may
 * land on a port another test's server or an outgoing connection holds (the kernel's ephemeral range
 * starts at 32768): a CI run lost a test to EADDRINUSE that way.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
