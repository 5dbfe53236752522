import { z } from 'zod';
import {
  CertSpotterIssuance,
  CrtShRow,
  ctDatasetFromCertificates,
  exampleComDataset,
  exampleComExpectedObservations,
  type FakeCtProviders,
  startFakeCtProviders,
} from '../src';

// The fake serves loopback HTTP only; these tests talk to it with the global fetch.

const crtShPath = (apex: string): string => `/?q=%25.${apex}&output=json`;
const certSpotterPath = (apex: string, after?: string): string =>
  `/v1/issuances?domain=${apex}&include_subdomains=true&expand=dns_names${after === undefined ? '' : `&after=${after}`}`;

async function getJson(url: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

const rows = (value: unknown) => CrtShRow.array().parse(value);
const issuances = (value: unknown) => CertSpotterIssuance.array().parse(value);

describe('startFakeCtProviders', () => {
  let fake: FakeCtProviders;

  beforeAll(async () => {
    fake = await startFakeCtProviders({ certSpotterPageSize: 5, retryAfterSeconds: 2 });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('serves the recorded crt.sh answer for example.com and counts calls per provider and apex', async () => {
    const answer = await getJson(`${fake.crtShUrl}${crtShPath('Example.COM')}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(rows(answer.body)).toEqual(exampleComDataset().crtSh);
    expect(rows(answer.body).some((row) => row.entry_timestamp === null)).toBe(true);
    expect(fake.calls('crt.sh')).toBe(1);
    expect(fake.calls('crtsh', 'example.com')).toBe(1);
    expect(fake.calls('crt.sh', 'other.org')).toBe(0);
    expect(fake.calls('certspotter')).toBe(0);
  });

  it('reads the same counts over HTTP on /calls, for a process that does not hold the fake', async () => {
    await getJson(`${fake.crtShUrl}${crtShPath('Counted.ORG')}`);
    await getJson(`${fake.crtShUrl}${crtShPath('counted.org')}`);
    const calls = (query: string) => getJson(`${fake.baseUrl}/calls?${query}`);
    expect(await calls('provider=crt.sh&apex=counted.org')).toMatchObject({
      status: 200,
      body: { calls: 2 },
    });
    expect(await calls('provider=crtsh&apex=Counted.org')).toMatchObject({ status: 200, body: { calls: 2 } });
    expect(await calls('provider=certspotter&apex=counted.org')).toMatchObject({ body: { calls: 0 } });
    expect(await calls('provider=crt.sh&apex=other.org')).toMatchObject({ body: { calls: 0 } });
    // Reading the counters is no provider call.
    expect(await calls('provider=crt.sh')).toMatchObject({ body: { calls: 2 } });
    const refused = await fetch(`${fake.baseUrl}/calls?provider=elsewhere`);
    expect(refused.status).toBe(400);
    expect(fake.calls('crt.sh')).toBe(2);
  });

  it('pages Cert Spotter issuances with after=<last id> until an empty page', async () => {
    const all = exampleComDataset().certSpotter;
    const first = issuances((await getJson(`${fake.certSpotterUrl}${certSpotterPath('example.com')}`)).body);
    expect(first).toEqual(all.slice(0, 5));
    const second = issuances(
      (await getJson(`${fake.certSpotterUrl}${certSpotterPath('example.com', first.at(-1)?.id)}`)).body,
    );
    expect(second).toEqual(all.slice(5));
    const third = await getJson(`${fake.certSpotterUrl}${certSpotterPath('example.com', second.at(-1)?.id)}`);
    expect(third.body).toEqual([]);
    expect(fake.calls('certspotter', 'example.com')).toBe(3);
  });

  it('sends dns_names only with expand=dns_names and subdomains only with include_subdomains=true', async () => {
    const bare = await getJson(`${fake.certSpotterUrl}/v1/issuances?domain=example.com`);
    const list = z.array(z.record(z.string(), z.unknown())).parse(bare.body);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((issuance) => !('dns_names' in issuance))).toBe(true);
    const exact = issuances(
      (await getJson(`${fake.certSpotterUrl}/v1/issuances?domain=example.com&expand=dns_names`)).body,
    );
    expect(exact.every((issuance) => issuance.dns_names.includes('example.com'))).toBe(true);
  });

  it('generates a deterministic, realistic data set for an unknown apex, the same from both providers', async () => {
    const first = rows((await getJson(`${fake.crtShUrl}${crtShPath('acme-widgets.io')}`)).body);
    const other = await startFakeCtProviders();
    try {
      const again = rows((await getJson(`${other.crtShUrl}${crtShPath('acme-widgets.io')}`)).body);
      expect(again).toEqual(first);
    } finally {
      await other.close();
    }
    expect(first.length).toBeGreaterThanOrEqual(30);
    const names = first.flatMap((row) => row.name_value.split('\n'));
    expect(names.some((name) => name.startsWith('*.'))).toBe(true);
    expect(names.some((name) => name !== name.toLowerCase())).toBe(true);
    expect(names.some((name) => name.includes('@'))).toBe(true);
    expect(names.some((name) => !name.toLowerCase().endsWith('acme-widgets.io'))).toBe(true);
    expect(first.some((row) => row.entry_timestamp === null)).toBe(true);
    expect(first.some((row) => row.name_value.includes('\n'))).toBe(true);
    expect(new Set(first.map((row) => row.name_value)).size).toBeLessThan(first.length); // duplicates

    const spotted: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = issuances(
        (await getJson(`${fake.certSpotterUrl}${certSpotterPath('acme-widgets.io', after)}`)).body,
      );
      if (page.length === 0) break;
      spotted.push(...page.flatMap((issuance) => issuance.dns_names));
      after = page.at(-1)?.id;
    }
    const dnsNames = (list: string[]) => new Set(list.filter((name) => !name.includes('@')));
    expect(dnsNames(spotted)).toEqual(dnsNames(names));
  });

  it('serves a data set given with setDataset until reset()', async () => {
    fake.setDataset(
      'Tiny.Example',
      ctDatasetFromCertificates([
        {
          names: ['a.tiny.example', 'ops@tiny.example'],
          loggedAt: '2024-01-02T03:04:05.6',
          notBefore: '2024-01-02T02:04:05',
        },
      ]),
    );
    const crt = rows((await getJson(`${fake.crtShUrl}${crtShPath('tiny.example')}`)).body);
    expect(crt).toHaveLength(1);
    expect(crt[0]).toMatchObject({
      name_value: 'a.tiny.example\nops@tiny.example',
      entry_timestamp: '2024-01-02T03:04:05.6',
    });
    const spot = issuances((await getJson(`${fake.certSpotterUrl}${certSpotterPath('tiny.example')}`)).body);
    expect(spot).toHaveLength(1);
    expect(spot[0]).toMatchObject({ dns_names: ['a.tiny.example'], not_before: '2024-01-02T02:04:05Z' });

    fake.reset();
    expect(fake.calls('crt.sh')).toBe(0);
    const generated = rows((await getJson(`${fake.crtShUrl}${crtShPath('tiny.example')}`)).body);
    expect(generated.length).toBeGreaterThan(1);
  });

  it('answers status:<code> with the real services’ kind of body', async () => {
    fake.setBehaviour('crt.sh', 'status:502');
    const crt = await fetch(`${fake.crtShUrl}${crtShPath('example.com')}`);
    expect(crt.status).toBe(502);
    expect(crt.headers.get('content-type')).toBe('text/html');
    expect(await crt.text()).toContain('502 Bad Gateway');

    fake.setBehaviour('certspotter', 'status:429');
    const spot = await fetch(`${fake.certSpotterUrl}${certSpotterPath('example.com')}`);
    expect(spot.status).toBe(429);
    expect(spot.headers.get('retry-after')).toBe('2');
    expect(await spot.json()).toMatchObject({ code: 'rate_limited' });
    expect(fake.calls('crt.sh')).toBe(1);
    expect(fake.calls('certspotter')).toBe(1);
  });

  it('applies a behaviour to `times` requests, then answers ok again', async () => {
    fake.setBehaviour('crt.sh', 'status:503', { times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${fake.crtShUrl}${crtShPath('example.com')}`);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('delay:<ms> still answers normally', async () => {
    fake.setBehaviour('crt.sh', 'delay:30');
    const answer = await getJson(`${fake.crtShUrl}${crtShPath('example.com')}`);
    expect(rows(answer.body)).toEqual(exampleComDataset().crtSh);
  });

  it('truncated cuts the answer in the middle of the JSON', async () => {
    const full = await (await fetch(`${fake.crtShUrl}${crtShPath('example.com')}`)).text();
    fake.setBehaviour('crt.sh', 'truncated');
    const response = await fetch(`${fake.crtShUrl}${crtShPath('example.com')}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThan(full.length);
    expect(full.startsWith(text)).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('reset destroys the connection without an answer', async () => {
    fake.setBehaviour('certspotter', 'reset');
    await expect(fetch(`${fake.certSpotterUrl}${certSpotterPath('example.com')}`)).rejects.toThrow();
  });

  it.each([
    ['crt.sh', crtShPath],
    ['certspotter', certSpotterPath],
  ] as const)('huge:<bytes> streams a valid %s-shaped array of exactly that size', async (provider, path) => {
    const bytes = 3 * 1024 * 1024 + 17;
    fake.setBehaviour(provider, `huge:${bytes}`);
    const base = provider === 'crt.sh' ? fake.crtShUrl : fake.certSpotterUrl;
    const response = await fetch(`${base}${path('big.example')}`);
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBe(bytes);
    const parsed = JSON.parse(text);
    const list = provider === 'crt.sh' ? rows(parsed) : issuances(parsed);
    expect(list.length).toBeGreaterThan(1000);
    if (provider === 'certspotter') {
      const next = await getJson(`${base}${certSpotterPath('big.example', String(list.at(-1)?.id))}`);
      expect(next.body).toEqual([]);
    }
  });

  it('keeps serving after a client abandons a huge answer', async () => {
    fake.setBehaviour('crt.sh', `huge:${512 * 1024 * 1024}`, { times: 1 });
    const controller = new AbortController();
    const response = await fetch(`${fake.crtShUrl}${crtShPath('big.example')}`, {
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    expect(reader).toBeDefined();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    controller.abort();
    const after = await getJson(`${fake.crtShUrl}${crtShPath('example.com')}`);
    expect(after.status).toBe(200);
  });

  it('records each request with its Authorization header', async () => {
    await fetch(`${fake.certSpotterUrl}${certSpotterPath('example.com')}`, {
      headers: { authorization: 'Bearer test-token' },
    }).then((response) => response.arrayBuffer());
    await fetch(`${fake.crtShUrl}${crtShPath('example.com')}`).then((response) => response.arrayBuffer());
    expect(fake.requests('certspotter')).toEqual([
      expect.objectContaining({
        provider: 'certspotter',
        apex: 'example.com',
        authorization: 'Bearer test-token',
      }),
    ]);
    expect(fake.requests('crt.sh')[0]).toMatchObject({
      authorization: null,
      url: `/crtsh${crtShPath('example.com')}`,
    });
  });

  it('rejects malformed requests and behaviours', async () => {
    const notFound = await fetch(`${fake.crtShUrl.replace('/crtsh', '/nope')}`);
    expect(notFound.status).toBe(404);
    const noQuery = await fetch(`${fake.crtShUrl}/?output=json`);
    expect(noQuery.status).toBe(400);
    expect(fake.calls('crt.sh')).toBe(0);
    expect(() => fake.setBehaviour('crt.sh', 'status:abc' as 'status:1')).toThrow(RangeError);
    expect(() => fake.setBehaviour('crt.sh', 'status:99')).toThrow(RangeError);
  });
});

/**
 * A plain reading of the design's observation rules, to check the hand-written expectations in
 * fixtures/ct/expected-example-com.json against the fixtures they describe.
 */
function referenceObservations(apex: string, names: Array<{ name: string; at: string }>) {
  const label = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
  const earliest = new Map<string, number>();
  for (const { name, at } of names) {
    const host = name.trim().toLowerCase().replace(/^\*\./, '');
    if (host.includes('@') || host.length > 253 || !host.split('.').every((part) => label.test(part)))
      continue;
    if (host !== apex && !host.endsWith(`.${apex}`)) continue;
    const ms = Date.parse(at);
    earliest.set(host, Math.min(earliest.get(host) ?? ms, ms));
  }
  return [...earliest.keys()]
    .sort()
    .map((hostname) => ({ hostname, first_seen: new Date(earliest.get(hostname) ?? 0).toISOString() }));
}

describe('the example.com fixtures', () => {
  it('match their expected observations', () => {
    const dataset = exampleComDataset();
    const expected = exampleComExpectedObservations();
    const fromCrtSh = dataset.crtSh.flatMap((row) =>
      row.name_value.split('\n').map((name) => ({ name, at: `${row.entry_timestamp ?? row.not_before}Z` })),
    );
    expect(referenceObservations('example.com', fromCrtSh)).toEqual(expected['crt.sh']);
    const fromCertSpotter = dataset.certSpotter.flatMap((issuance) =>
      issuance.dns_names.map((name) => ({ name, at: issuance.not_before })),
    );
    expect(referenceObservations('example.com', fromCertSpotter)).toEqual(expected.certspotter);
  });
});

describe('a hanging provider', () => {
  it('never answers, and close() still ends promptly', async () => {
    const fake = await startFakeCtProviders();
    fake.setBehaviour('crt.sh', 'hang');
    const pending = fetch(`${fake.crtShUrl}${crtShPath('example.com')}`);
    const raced = await Promise.race([
      pending.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200)),
    ]);
    expect(raced).toBe('still waiting');
    expect(fake.calls('crt.sh')).toBe(1);
    await fake.close();
    await expect(pending).rejects.toThrow();
  });
});
