import { serviceClient } from '@svc/bus';
import { AppError } from '@svc/errors';
import { createTestBus, type TestBus } from '@svc/testkit';

// Issue 13 finding 3, at its root: input nested ~5,000 levels deep made JSON.stringify overflow
// while the RPC client encoded the request (BullMQ's job data, or the bus's sealing), and the
// client reported that as 503 "orchestrator service is unavailable" with Retry-After, inviting a
// retry of a request that can never be sent. The gateway bounds nesting first (safe-input.ts);
// the client must still never call a local encoding failure an outage. No responder runs: the
// request fails before it leaves the process.

const CLIENT_ID = '5f0c7a62-3c39-4f4e-9a55-0d3c6f0e8a11';

function deep(levels: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
}

let testBus: TestBus;

beforeAll(() => {
  testBus = createTestBus('rpcenc');
});

afterAll(() => testBus?.close());

it('fails a request too deep to encode with a non-503 error, not "service is unavailable"', async () => {
  const orchestrator = serviceClient(testBus.bus, 'orchestrator', { timeoutMs: 3_000 });
  const request = {
    client_id: CLIENT_ID,
    slug: 'pii-redact',
    input: { text: deep(50_000) },
    client_type: 'api',
  };
  const failure = await orchestrator.quote(request).then(
    () => new Error('the request was sent'),
    (err: unknown) => err,
  );
  const status = failure instanceof AppError ? failure.status : 500;
  expect({ status, message: failure instanceof Error ? failure.message : String(failure) }).toEqual({
    status: 500,
    message: expect.not.stringMatching(/unavailable|did not answer/),
  });
});
