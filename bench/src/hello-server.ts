// The baseline: a bare express 5 + helmet app with one JSON route, in its own process like the
// gateway, so `pnpm bench` reports the platform's overhead as a ratio against the same machine.
import express from 'express';
import helmet from 'helmet';

const port = Number(process.env.PORT ?? '0');
const app = express();
app.disable('x-powered-by');
app.use(helmet());
app.get('/hello', (_req, res) => {
  res.json({ ok: true, hello: 'world' });
});
const server = app.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  // The parent reads this one line to learn the port.
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: bound })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
