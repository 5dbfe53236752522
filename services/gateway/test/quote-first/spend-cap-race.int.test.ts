import { BalanceResponse, type Quote, UsageStatementResponse } from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS } from '@svc/testkit';
import { type SharedPlatform, sharedPlatform } from '../support/shared-platform';
import { errorOf, postRun, quoteOk, waitForSettled, waitForStatus } from './support';

// Issue 4: "50 concurrent runs against a cap that allows 10 must accept exactly 10, and the ledger
// must add up afterwards" — over HTTP, against the real gateway, orchestrator, wallet and worker.

const SCOPES = ['capabilities:quote', 'capabilities:run', 'billing:read'];
const RUNS = 50;
const PRICE_USD = '0.002'; // pii-redact: one started block of 1,000 characters

// Whole-platform flows with retries and worker restarts take longer than the default 60 s.
jest.setTimeout(120_000);

let qf: SharedPlatform;

beforeAll(async () => {
  qf = await sharedPlatform(); // the jest run's platform; this suite's own clients
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await qf?.close();
});

it('accepts exactly the runs the spend cap has room for and the ledger adds up', async () => {
  // Room for 10 runs of 0.002 USD under the cap; the balance alone would allow 500.
  const client = await qf.stack.createApiKey({ scopes: SCOPES, balanceUsd: '1', spendCapUsd: '0.02' });
  const inputs = Array.from({ length: RUNS }, (_, i) => ({
    text: `race ${i}: write to person${i}@example.com`,
  }));
  const quotes: Quote[] = [];
  for (const input of inputs) {
    const quote = await quoteOk(qf.stack, client.apiKey, 'pii-redact', input);
    expect(quote.price_usd).toBe(PRICE_USD);
    expect(quote.wallet_clearance.cleared).toBe(true);
    quotes.push(quote);
  }

  // A client retries a 503 (a service did not answer in time) with the same key, as it should:
  // the retry is safe (the same key, the same quote, a hold already taken is reused), so under any
  // load the outcome is the same: exactly the runs that fit.
  const runOnce = async (i: number) => {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await postRun(
        qf.stack,
        client.apiKey,
        'pii-redact',
        { input: inputs[i], quote_id: quotes[i]?.quote_id },
        { idempotencyKey: `race-run-${i}` },
      );
      if (answer.status !== 503 || attempt === 3) return answer;
    }
  };
  const answers = await Promise.all(inputs.map((_, i) => runOnce(i)));
  // 202 accepted; 200 is a retry that found its run already accepted (a replay).
  const isAccepted = (status: number) => status === 202 || status === 200;
  const unexpected = answers.map((answer) => answer.status).filter((s) => !isAccepted(s) && s !== 402);
  expect(unexpected).toEqual([]);
  const accepted = answers.filter((answer) => isAccepted(answer.status));
  const refused = answers.filter((answer) => answer.status === 402);
  expect(accepted).toHaveLength(10);
  expect(refused).toHaveLength(RUNS - 10);
  for (const answer of refused) expect(errorOf(answer)).toContain('spend cap exceeded');

  // Every accepted run completes and is captured; every refused one left nothing behind.
  const acceptedIds = accepted.map((answer) => String((answer.json as { run_id: string }).run_id));
  for (const runId of acceptedIds) {
    await waitForStatus(qf.stack, client.apiKey, runId, 'completed');
    await waitForSettled(qf.stack, client.apiKey, runId);
  }
  expect(await qf.prisma.run.count({ where: { clientId: client.clientId } })).toBe(10);

  const lines = await qf.prisma.ledgerEntry.findMany({ where: { clientId: client.clientId } });
  const byKind = (kind: string) => lines.filter((line) => line.kind === kind);
  expect(byKind('hold')).toHaveLength(10);
  expect(byKind('capture')).toHaveLength(10);
  expect(byKind('release')).toHaveLength(0);
  const captured = byKind('capture').reduce((sum, line) => sum + line.amountMicros, 0n);
  expect(captured).toBe(-20_000n); // 10 × 0.002 USD in micro-USD

  const balance = BalanceResponse.parse(
    (await qf.stack.fetch('/api/account/balance', { apiKey: client.apiKey })).json,
  );
  expect(balance).toMatchObject({
    balance_usd: '0.98',
    held_usd: '0.00',
    spent_usd: '0.02',
    remaining_usd: '0.00',
  });
  const statement = UsageStatementResponse.parse(
    (await qf.stack.fetch('/api/account/usage-statement', { apiKey: client.apiKey })).json,
  );
  expect(statement.totals).toEqual({ runs: 10, spent_usd: '0.02' });
});
