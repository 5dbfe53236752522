// Issue 15's key-check benchmark: `GET /api/account/whoami` (the API key check and nothing else:
// the answer is built from the verified key) beside a bare express 5 + helmet app, each in its own
// process, at the same connections, measured alternately in the same run (measureAgainst).
// Target (issue 25): whoami ≥ 0.6× the bare app; the platform's CPU per request printed beside.
import { startHelloServer } from './child-server';
import { formatRowCosts, openCostMeter } from './cpu-cost';
import { type LoadOptions, measureAgainst } from './load';
import { formatTable, ratioLine } from './report';
import { startBenchStack } from './stack-start';

/** The platform's processes, each counted in the CPU per request. */
const SERVICES = ['gateway', 'registry', 'wallet'] as const;

export async function benchWhoami(options: LoadOptions): Promise<void> {
  const stack = await startBenchStack({ services: SERVICES });
  const meter = await openCostMeter({ stack, services: SERVICES });
  const hello = await startHelloServer();
  try {
    const key = await stack.createApiKey({ scopes: ['capabilities:read'], clientName: 'bench-whoami' });
    const probe = await stack.fetch('/api/account/whoami', { apiKey: key.apiKey });
    if (probe.status !== 200) throw new Error(`whoami answered ${probe.status}: ${probe.text.slice(0, 300)}`);
    const { baseline, target } = await measureAgainst(
      { name: 'bare express+helmet /hello', url: `${hello.url}/hello` },
      {
        name: 'GET /api/account/whoami (key check)',
        url: `${stack.gatewayUrl}/api/account/whoami`,
        headers: { authorization: `Bearer ${key.apiKey}` },
      },
      options,
      { target: meter },
    );
    console.log(
      `\nwhoami: ${options.connections} connections, ${options.durationSeconds} s each, measured alternately ` +
        '(baseline, whoami, whoami, baseline; halves combined: p50 = mean of the halves, p99 = the larger)',
    );
    console.log(formatTable([baseline, target], baseline));
    console.log(formatRowCosts([target]));
    console.log(
      ratioLine('whoami req/s ÷ bare express req/s', target.requestsPerSecond, baseline.requestsPerSecond, {
        atLeast: 0.6,
      }),
    );
  } finally {
    await meter.close();
    await hello.server.stop();
    await stack.close();
  }
}
