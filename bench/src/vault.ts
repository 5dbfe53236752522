// Issue 16's benchmark: the vault through the whole platform (gateway → bus → vault → PostgreSQL),
// beside the quote endpoint (gateway → orchestrator → registry, wallet) measured in the same run:
//  - fields written per second (POST /api/vault/fields: validate, mask, a fresh data key, two
//    AES-256-GCM seals, one insert; creates of many clients in turn, then of one client at a time,
//    whose creates the vault serialises under its field limit) and fields listed per second
//    (GET /api/vault/fields of a client with 20 fields, masked values read as stored), at
//    BENCH_CONNECTIONS (32);
//  - fill-document p50/p99 for a one-page PDF form (five AcroForm fields, four allowed: decrypt,
//    fill with an embedded Unicode font, store, register the artifact), sequential, and the same for
//    a text template, BENCH_VAULT_FILLS (50) each.
// Order: quote, writes, writes (one client), lists, quote (each of the two quote halves half the duration), so a load
// that drifts during the run weighs on the baseline and the vault rows alike.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { TestStack } from '@svc/testkit';
import autocannon from 'autocannon';
import { formatColumns } from './columns';
import { formatRowCosts, openCostMeter } from './cpu-cost';
import { combine, type LoadOptions, type LoadResult, measure, toLoadResult } from './load';
import { percentile } from './quote-run-load';
import { formatTable, ratioLine } from './report';
import { startBenchStack } from './stack-start';
import { onePagePdfForm } from './vault-pdf-form';

const VAULT_SCOPES = ['vault:read', 'vault:write', 'vault:fill', 'uploads:write', 'artifacts:read'];
/** Fields one writing client gets before the load moves on to the next (the vault allows 500). */
const FIELDS_PER_CLIENT = 450;
/** Writing clients made up front: FIELDS_PER_CLIENT × this bounds the writes of one run. */
const WRITING_CLIENTS = 160;
/** Fields of the client whose list is read: a full profile and then some. */
const LISTED_FIELDS = 20;
const QUOTE_TEXT =
  'Dear customer, your order ships Monday. Questions? Write to support@example.com or call +1 (555) 010-7788.';
/** Valid values of a few types, written in turn (each type is validated and masked its own way). */
const WRITE_VALUES: readonly { type: string; value: string }[] = [
  { type: 'email', value: 'jane.doe@example.com' },
  { type: 'iban', value: 'DE89 3704 0044 0532 0130 00' },
  { type: 'phone', value: '+49 30 901820 45' },
  { type: 'city', value: 'Ærøskøbing' },
  { type: 'full_name', value: '東京 Şahin Groß' },
  { type: 'date_of_birth', value: '1987-03-15' },
];
const FILL_FIELDS = { full_name: '東京 Şahin Groß', city: 'Ærøskøbing', email: 'jane.doe@example.com' };

function fillsFromEnv(): number {
  const text = process.env.BENCH_VAULT_FILLS ?? '';
  const value = text === '' ? 50 : Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`BENCH_VAULT_FILLS must be ≥ 1, got "${text}"`);
  return value;
}

async function post(stack: TestStack, apiKey: string, path: string, json: unknown, expected: number) {
  const answer = await stack.fetch(path, { method: 'POST', apiKey, json });
  if (answer.status !== expected) {
    throw new Error(`vault bench: POST ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  return answer;
}

/** Which writing client request n creates its field for. */
type KeyChoice = 'spread' | 'one at a time';

/**
 * Field creates at `connections`: request n creates field `f_<n>` (types in turn). `spread`: the
 * clients take turns request by request (n mod clients), so concurrent creates are of different
 * clients, as when many clients write; `one at a time`: every request goes to one client until it
 * has FIELDS_PER_CLIENT fields, then the next, so the 32 connections contend for one client's lock
 * (the vault serialises a client's creates to hold its field limit). Either way no client reaches
 * the limit. One counter across the warm-up and the measured run: every request creates a field.
 */
function writeRunner(stack: TestStack, apiKeys: readonly string[], choice: KeyChoice) {
  let n = 0;
  const keyFor = (i: number) =>
    choice === 'spread'
      ? apiKeys[i % apiKeys.length]
      : apiKeys[Math.floor(i / FIELDS_PER_CLIENT) % apiKeys.length];
  const run = (connections: number, seconds: number) =>
    autocannon({
      url: `${stack.gatewayUrl}/api/vault/fields`,
      method: 'POST',
      connections,
      duration: seconds,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            n += 1;
            const { type, value } = WRITE_VALUES[n % WRITE_VALUES.length] ?? { type: 'city', value: 'Kiel' };
            return {
              ...request,
              headers: { ...request.headers, authorization: `Bearer ${keyFor(n)}` },
              body: JSON.stringify({ name: `f_${n}`, type, value }),
            };
          },
        },
      ],
    });
  return async (name: string, options: LoadOptions): Promise<LoadResult> => {
    if (options.warmupSeconds > 0) await run(options.connections, options.warmupSeconds);
    const result = toLoadResult(name, await run(options.connections, options.durationSeconds), 0);
    if (n > FIELDS_PER_CLIENT * apiKeys.length) {
      console.warn(
        `[bench vault] ${n} writes outran ${apiKeys.length} writing clients: later ones were refused`,
      );
    }
    return result;
  };
}

interface FillStats {
  name: string;
  count: number;
  p50: number;
  p99: number;
  mean: number;
  bytes: number;
}

/** `count` sequential fills after 5 discarded ones; the latency of each, as the client sees it. */
async function timeFills(
  stack: TestStack,
  apiKey: string,
  name: string,
  request: unknown,
  count: number,
): Promise<FillStats> {
  for (let i = 0; i < 5; i++) await post(stack, apiKey, '/api/vault/fill-document', request, 201);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await post(stack, apiKey, '/api/vault/fill-document', request, 201);
    times.push(performance.now() - started);
    const size = Reflect.get(
      Object(Reflect.get(Object(Reflect.get(Object(answer.json), 'document')), 'artifact')),
      'size_bytes',
    );
    if (typeof size === 'number') bytes = size;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    name,
    count,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    bytes,
  };
}

/** After refused requests under load: one answer now, and the error lines the services logged. */
async function explainFailures(stack: TestStack, apiKey: string): Promise<void> {
  const now = await stack.fetch('/api/vault/fields', { apiKey });
  console.warn(
    `[bench vault] refused answers under load; GET /api/vault/fields now: ${now.status} ${now.text.slice(0, 300)}`,
  );
  for (const name of ['gateway', 'vault'] as const) {
    const lines = stack
      .logs(name)
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
    console.warn(
      `[bench vault] ${name}: ${lines.length} error lines; first: ${lines.slice(0, 3).join('\n')}`,
    );
  }
}

/** Uploads the PDF form through an upload session of the `vault-document` target; its upload id. */
async function uploadForm(stack: TestStack, apiKey: string, bytes: Buffer): Promise<string> {
  const session = await post(
    stack,
    apiKey,
    '/api/capabilities/vault-document/upload-session',
    { input: { filename: 'form.pdf', content_type: 'application/pdf', size_bytes: bytes.byteLength } },
    201,
  );
  const url = String(Reflect.get(Object(session.json), 'upload_url'));
  const token = String(Reflect.get(Object(session.json), 'upload_token'));
  const put = await stack.fetch(new URL(url).pathname, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  if (put.status !== 200)
    throw new Error(`vault bench: PUT form answered ${put.status}: ${put.text.slice(0, 300)}`);
  return String(Reflect.get(Object(session.json), 'upload_id'));
}

/** The platform's processes, each counted in the CPU per request. */
const SERVICES = ['registry', 'wallet', 'orchestrator', 'uploads', 'vault', 'gateway'] as const;

export async function benchVault(options: LoadOptions): Promise<void> {
  const stack = await startBenchStack({ services: SERVICES });
  const meter = await openCostMeter({ stack, services: SERVICES });
  try {
    const tag = randomBytes(3).toString('hex');
    const quoter = await stack.createApiKey({
      scopes: ['capabilities:quote'],
      clientName: `bench-vault-quote-${tag}`,
      balanceUsd: '1000',
    });
    const reader = await stack.createApiKey({ scopes: VAULT_SCOPES, clientName: `bench-vault-read-${tag}` });
    const writers = (label: string) =>
      Promise.all(
        Array.from({ length: WRITING_CLIENTS }, (_, i) =>
          stack.createApiKey({ scopes: ['vault:write'], clientName: `bench-vault-${label}-${tag}-${i}` }),
        ).map((key) => key.then((k) => k.apiKey)),
      );
    const spreadWriters = await writers('spread');
    const oneAtATimeWriters = await writers('one');
    for (let i = 0; i < LISTED_FIELDS; i++) {
      const { type, value } = WRITE_VALUES[i % WRITE_VALUES.length] ?? { type: 'city', value: 'Kiel' };
      await post(stack, reader.apiKey, '/api/vault/fields', { name: `field_${i}`, type, value }, 201);
    }
    const listed = await stack.fetch('/api/vault/fields', { apiKey: reader.apiKey });
    if (listed.status !== 200) {
      throw new Error(
        `vault bench: GET /api/vault/fields answered ${listed.status}: ${listed.text.slice(0, 300)}`,
      );
    }
    await post(
      stack,
      quoter.apiKey,
      '/api/capabilities/pii-redact/quote',
      { input: { text: QUOTE_TEXT } },
      200,
    );

    const half = { ...options, durationSeconds: Math.max(1, options.durationSeconds / 2) };
    const quote = {
      name: 'POST /api/capabilities/pii-redact/quote',
      url: `${stack.gatewayUrl}/api/capabilities/pii-redact/quote`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${quoter.apiKey}`, 'content-type': 'application/json' },
      bodyFor: () => JSON.stringify({ input: { text: QUOTE_TEXT } }),
    };
    const quote1 = await measure(quote, half, meter);
    const writes = await writeRunner(
      stack,
      spreadWriters,
      'spread',
    )(`POST /api/vault/fields (create; ${WRITING_CLIENTS} clients in turn)`, options);
    const writesOneClient = await writeRunner(
      stack,
      oneAtATimeWriters,
      'one at a time',
    )('POST /api/vault/fields (create; one client at a time)', options);
    const lists = await measure(
      {
        name: `GET /api/vault/fields (${LISTED_FIELDS} fields)`,
        url: `${stack.gatewayUrl}/api/vault/fields`,
        headers: { authorization: `Bearer ${reader.apiKey}` },
      },
      options,
      meter,
    );
    if (lists.non2xx > 0 || writes.non2xx > 0 || writesOneClient.non2xx > 0)
      await explainFailures(stack, reader.apiKey);
    const quote2 = await measure(quote, { ...half, warmupSeconds: 0 }, meter);
    const baseline = combine(quote1, quote2);

    const fills = fillsFromEnv();
    for (const [name, value] of Object.entries(FILL_FIELDS)) {
      await post(stack, reader.apiKey, '/api/vault/fields', { name, type: name, value }, 201);
    }
    const form = onePagePdfForm(['full_name', 'city', 'email', 'field_1', 'membership_number']);
    const uploadId = await uploadForm(stack, reader.apiKey, form);
    const allowed = ['full_name', 'city', 'email', 'field_1'];
    const pdf = await timeFills(
      stack,
      reader.apiKey,
      'one-page PDF form (5 fields, 4 filled)',
      { template: { upload_id: uploadId }, fields: allowed },
      fills,
    );
    const text = await timeFills(
      stack,
      reader.apiKey,
      'text template (4 placeholders)',
      {
        template: { text: 'Name {{full_name}}, {{city}}; {{email}}, {{field_1}}.', format: 'text' },
        fields: allowed,
      },
      fills,
    );

    console.log(
      `\nvault: ${options.connections} connections, ${options.durationSeconds} s each ` +
        '(quote measured in two halves, before and after the vault rows)',
    );
    console.log(formatTable([baseline, writes, writesOneClient, lists], baseline));
    console.log(formatRowCosts([baseline, lists]));
    const answers = (r: LoadResult) => JSON.stringify(r.statusCounts);
    console.log(
      `answers: writes ${answers(writes)}, one client at a time ${answers(writesOneClient)}, lists ${answers(lists)}`,
    );
    console.log(
      ratioLine('fields written/s ÷ quotes/s', writes.requestsPerSecond, baseline.requestsPerSecond),
    );
    console.log(
      ratioLine(
        'fields written/s (one client at a time) ÷ quotes/s',
        writesOneClient.requestsPerSecond,
        baseline.requestsPerSecond,
      ),
    );
    console.log(ratioLine('fields listed/s ÷ quotes/s', lists.requestsPerSecond, baseline.requestsPerSecond));
    console.log(`\nfill-document, sequential, ${fills} fills each after 5 discarded (ms)`);
    console.log(
      formatColumns(
        ['template', 'fills', 'p50', 'p99', 'mean', 'output bytes'],
        [pdf, text].map((s) => [
          s.name,
          String(s.count),
          s.p50.toFixed(1),
          s.p99.toFixed(1),
          s.mean.toFixed(1),
          String(s.bytes),
        ]),
      ),
    );
  } finally {
    await meter.close();
    await stack.close();
  }
}
