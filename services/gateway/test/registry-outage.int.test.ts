// Cost: ~9 s on 2 cores (16-59 s busy): 2 services started once, and the registry again after its SIGKILL.
import { ErrorResponse, ListCapabilitiesResponse } from '@svc/contracts';
import { startTestStack, type TestStack } from '@svc/testkit';

/**
 * The catalog cache under a registry outage (decisions.md P2): warm answers keep being served,
 * a miss fails fast with 503 (RPC_TIMEOUT_MS, never a hang), and the gateway recovers by itself
 * once the registry is back.
 */

const RPC_TIMEOUT_MS = 1_000;

describe('gateway with the registry down (integration)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      services: ['registry', 'gateway'],
      env: { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) },
      quiet: true, // the registry is killed on purpose
    });
  });
  afterAll(() => stack?.close());

  it('serves cached answers, 503s a miss within the timeout, and recovers without a gateway restart', async () => {
    const warmList = '/api/capabilities?q=certificate%20transparency';
    const warmDescribe = '/api/capabilities/crt';
    const cold = '/api/capabilities?q=subdomains%20of%20a%20domain';
    for (const path of [warmList, warmDescribe]) expect((await stack.fetch(path)).status).toBe(200);
    const gatewayPid = stack.pid('gateway');

    await stack.kill('registry', 'SIGKILL');

    // Cached: answered from the gateway's memory.
    const list = await stack.fetch(warmList);
    expect(list.status).toBe(200);
    expect(ListCapabilitiesResponse.parse(list.json).capabilities[0]?.slug).toBe('crt');
    expect((await stack.fetch(warmDescribe)).status).toBe(200);

    // Not cached: 503 ErrorResponse after about RPC_TIMEOUT_MS, well before 3x it.
    const started = Date.now();
    const miss = await stack.fetch(cold);
    const elapsed = Date.now() - started;
    expect(miss.status).toBe(503);
    expect(miss.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(ErrorResponse.parse(miss.json).error).toMatch(/registry/);
    expect(elapsed).toBeLessThan(3 * RPC_TIMEOUT_MS);

    // Back up (testkit waits for its /readyz): the same query answers, same gateway process.
    await stack.start('registry');
    const recovered = await stack.fetch(cold);
    expect(recovered.status).toBe(200);
    expect(ListCapabilitiesResponse.parse(recovered.json).ok).toBe(true);
    expect(stack.pid('gateway')).toBe(gatewayPid);
  });

  it('finishes a request in flight on SIGTERM before closing the bus, then exits 0', async () => {
    await stack.kill('registry', 'SIGKILL');
    // Uncached, so it waits on the RPC for about RPC_TIMEOUT_MS while the gateway is told to stop.
    const inFlight = stack.fetch('/api/capabilities?q=in%20flight%20during%20shutdown');
    await new Promise((resolve) => setTimeout(resolve, RPC_TIMEOUT_MS / 4));
    const exitCode = stack.stop('gateway');
    const result = await inFlight;
    expect(result.status).toBe(503); // answered (registry down), not a reset connection
    ErrorResponse.parse(result.json);
    expect(await exitCode).toBe(0);
    expect(stack.logs('gateway')).toMatch(/"clean":true/);
  });
});
