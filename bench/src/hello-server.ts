// The baseline: a bare express 5 + helmet app with one JSON route, in its own process like the
// gateway, so `pnpm bench` reports the platform's overhead as a ratio against the same machine.
import express from 'express';
import helmet from 'helmet';
import { listenAnnounced } from './listen-announced';

const port = Number(process.env.PORT ?? '0');
const app = express();
app.disable('x-powered-by');
app.use(helmet());
app.get('/hello', (_req, res) => {
  res.json({ ok: true, hello: 'world' });
});
listenAnnounced(app, port);
