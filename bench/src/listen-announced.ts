// The bench's child servers (hello-server.ts, limiter-server.ts): listen on loopback, announce the
// bound port on the first stdout line (child-server.ts reads it), and close on SIGTERM.
import type { Server } from 'node:http';
import type { Express } from 'express';

/** Listens on 127.0.0.1:`port` (0: any); `beforeExit` runs once the server closed on SIGTERM. */
export function listenAnnounced(app: Express, port: number, beforeExit: () => void = () => {}): Server {
  const server = app.listen(port, '127.0.0.1', () => {
    const address = server.address();
    const bound = typeof address === 'object' && address !== null ? address.port : port;
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port: bound })}\n`);
  });
  process.on('SIGTERM', () => {
    server.close(() => {
      beforeExit();
      process.exit(0);
    });
  });
  return server;
}
