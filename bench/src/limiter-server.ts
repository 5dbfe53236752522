// The gateway's rate limiter alone, for `pnpm bench rate-limit`: a bare express 5 + helmet app (as
// hello-server.ts) with one JSON route, and with RATE_LIMITED=1 the gateway's own rate-limit
// middleware in front of it, spending from a Redis budget as the gateway does (the route is no API
// operation: a per-address read). The budget is scaled out of the way (BENCH_MULTIPLIER), so every
// request pays the limiter's full cost (one Redis round trip) and none is refused.
// Imported by path: the bench package does not depend on the gateway or the bus.
import express from 'express';
import helmet from 'helmet';
import { createRedis } from '../../packages/bus/src/redis';
import { createLogger } from '../../packages/log/src';
import { BudgetPolicies } from '../../services/gateway/src/rate-limit/budgets';
import { RedisBudgetLedger } from '../../services/gateway/src/rate-limit/limiter';
import { GatewayRateLimiter } from '../../services/gateway/src/rate-limit/rate-limiter';
import { listenAnnounced } from './listen-announced';

const port = Number(process.env.PORT ?? '0');
const limited = process.env.RATE_LIMITED === '1';
const logger = createLogger({ service: 'bench-limiter', level: 'warn' });
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  role: 'producer',
  name: 'bench-limiter',
  logger,
});
const app = express();
app.disable('x-powered-by');
app.use(helmet());
// For the bench's count of Redis work per request: calls per command so far (INFO commandstats).
// Commands a Lua script runs are counted under their own names, beside the EVALSHA that ran them.
// Mounted before the limiter, so asking costs no limiter call of its own.
app.get('/redis-commands', async (_req, res) => {
  const info = await redis.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    calls[match[1] ?? '?'] = Number(match[2]);
  res.json(calls);
});
if (limited) {
  const limiter = new GatewayRateLimiter(
    new RedisBudgetLedger({ redis, prefix: process.env.BUS_PREFIX ?? 'bench', logger }),
    new BudgetPolicies(Number(process.env.BENCH_MULTIPLIER ?? '1000000')),
  );
  app.use(limiter.classify);
}
app.get('/hello', (_req, res) => {
  res.json({ ok: true, hello: 'world' });
});
listenAnnounced(app, port, () => redis.disconnect());
