import net from 'node:net';
import { canListen, freePort } from '../src/net';

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port, host: '::' }, () => resolve(server));
  });
}

describe('freePort', () => {
  it('hands out ports below the ephemeral range, never the same one twice, each one bindable', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 40; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
    const server = await listen(ports[0] ?? 0);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sees a port that another listener holds as taken', async () => {
    const port = await freePort();
    expect(await canListen(port)).toBe(true);
    const holder = await listen(port);
    try {
      expect(await canListen(port)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});
