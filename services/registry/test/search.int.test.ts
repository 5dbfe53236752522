import { type ListCapabilitiesQuery, ListCapabilitiesResponse } from '@svc/contracts';
import { catalogChangedPublisher } from '../src/adapters/catalog-events';
import { searchCapabilities } from '../src/domain/search';
import { seedCatalog } from '../src/domain/seed';
import { MANIFESTS } from '../src/manifests';
import { SYNTHETIC_MANIFESTS } from './fixtures';
import { type RegistryTestEnv, startTestEnv } from './harness';

let env: RegistryTestEnv;

beforeAll(async () => {
  env = await startTestEnv('search');
  await seedCatalog({
    prisma: env.prisma,
    publishCatalogChanged: catalogChangedPublisher(env.bus),
    logger: env.logger,
    manifests: [...MANIFESTS, ...SYNTHETIC_MANIFESTS],
  });
});

afterAll(async () => {
  await env?.close();
});

/** Parses like the RPC layer does (defaults applied), then searches. */
async function search(query: Partial<ListCapabilitiesQuery>): Promise<ListCapabilitiesResponse> {
  const response = await searchCapabilities(env.prisma, { limit: 20, ...query });
  // Every answer must be a valid wire response.
  return ListCapabilitiesResponse.parse(response);
}

const slugs = (response: ListCapabilitiesResponse) => response.capabilities.map((item) => item.slug);

describe('searchCapabilities', () => {
  test.each([
    ['certificates for my domain', 'crt'],
    ['certificate transparency', 'crt'],
    ['find subdomains', 'crt'],
    ['crt', 'crt'],
    ['ct logs for example.com', 'crt'],
    ['extract text from pdf', 'pdf-extract-text'],
    ['read the pages of a pdf document', 'pdf-extract-text'],
    ['ocr a scanned pdf', 'pdf-ocr'],
    ['make a thumbnail of a photo image', 'image-thumbnail'],
    ['resize photos', 'image-thumbnail'],
    ['convert the format of an image', 'image-convert'],
    ['profile a csv file', 'csv-profile'],
    ['column statistics and data quality of a spreadsheet', 'csv-profile'],
    ['who registered this domain', 'whois'],
    ['whois registrar of example.com', 'whois'],
    ['redact personal data', 'pii-redact'],
    ['mask email addresses and phone numbers', 'pii-redact'],
    ['remove credit card numbers and IBANs from a text', 'pii-redact'],
    ['gdpr anonymize pii', 'pii-redact'],
    ['convert html to pdf', 'html-to-pdf'],
    ['print a web page as pdf with chromium', 'html-to-pdf'],
    ['render an invoice to pdf', 'html-to-pdf'],
    ['plan crt runs for many domains', 'crt-batch-plan'],
    ['plan certificate lookups for a list of domains', 'crt-batch-plan'],
    ['batch crt', 'crt-batch-plan'],
  ])('%j ranks %s first', async (q, expected) => {
    const response = await search({ q });
    expect(slugs(response)[0]).toBe(expected);
  });

  test('crt-batch-plan never outranks crt for what one crt run answers, and is its runner-up for bulk asks', async () => {
    for (const q of ['crt', 'certificates for my domain', 'certificate transparency', 'find subdomains']) {
      const found = slugs(await search({ q }));
      expect(found[0]).toBe('crt');
    }
    // Someone asking for many domains at once sees the plan right below crt.
    expect(
      slugs(await search({ q: 'bulk certificate transparency lookups for many domains' })).slice(0, 2),
    ).toEqual(['crt', 'crt-batch-plan']);
  });

  test('results are ordered by relevance (present, in [0, 1)) and each match shares a word', async () => {
    const response = await search({ q: 'certificates for my domain' });
    const relevances = response.capabilities.map((item) => item.relevance ?? -1);
    expect(relevances.every((value) => value > 0 && value < 1)).toBe(true);
    expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
    // OR semantics: whois (it says "domain", not "certificate") matches too, below crt.
    expect(slugs(response)).toEqual(expect.arrayContaining(['crt', 'whois']));
    expect(slugs(response)).not.toContain('image-thumbnail');
    expect(response.query).toEqual({ q: 'certificates for my domain', category: null, limit: 20 });
    expect(response.count).toBe(response.capabilities.length);
  });

  test('the summary carries pricing and the execution block with effective_status', async () => {
    const response = await search({ q: 'redact personal data' });
    expect(response.capabilities[0]).toMatchObject({
      slug: 'pii-redact',
      category: 'privacy',
      pricing: { model: 'per_unit', unit: '1000_characters', unit_price_usd: '0.002', minimum_usd: '0.002' },
      execution: {
        machine_run_status: 'supported',
        effective_status: 'supported',
        runtime: 'node',
        mode: 'async',
      },
    });
    const whois = (await search({ q: 'whois' })).capabilities[0];
    expect(whois).toMatchObject({
      slug: 'whois',
      execution: { machine_run_status: 'describe_only', effective_status: 'describe_only' },
    });
  });

  test('no q lists everything by slug, without relevance', async () => {
    const response = await search({});
    expect(slugs(response)).toEqual([
      'crt',
      'crt-batch-plan',
      'csv-profile',
      'dns-lookup',
      'html-to-pdf',
      'image-convert',
      'image-thumbnail',
      'pdf-extract-text',
      'pdf-ocr',
      'pii-redact',
      'whois',
    ]);
    expect(response.capabilities.every((item) => item.relevance === undefined)).toBe(true);
  });

  test('the category filter is exact and combines with q', async () => {
    expect(slugs(await search({ category: 'network' }))).toEqual(['dns-lookup', 'whois']);
    // whois and dns-lookup both say "domain"; crt (security) is filtered out despite ranking first overall.
    expect(slugs(await search({ q: 'certificates for my domain', category: 'network' }))).toEqual([
      'whois',
      'dns-lookup',
    ]);
    expect(slugs(await search({ q: 'certificates for my domain', category: 'security' }))).toEqual([
      'crt',
      'crt-batch-plan',
    ]);
    expect(slugs(await search({ category: 'privacy' }))).toEqual(['pii-redact']);
    expect(slugs(await search({ category: 'documents' }))).toEqual([
      'html-to-pdf',
      'pdf-extract-text',
      'pdf-ocr',
    ]);
    expect(slugs(await search({ category: 'media' }))).toEqual(['image-convert', 'image-thumbnail']);
    expect(slugs(await search({ category: 'data' }))).toEqual(['csv-profile']);
    expect(slugs(await search({ category: 'net' }))).toEqual([]);
  });

  test('limit is respected, with and without q', async () => {
    expect(slugs(await search({ limit: 2 }))).toEqual(['crt', 'crt-batch-plan']);
    const all = await search({ q: 'domain dns records hostname lookup' });
    expect(all.capabilities.length).toBeGreaterThan(1);
    const one = await search({ q: 'domain dns records hostname lookup', limit: 1 });
    expect(slugs(one)).toEqual(slugs(all).slice(0, 1));
  });

  test('a q made only of stop words matches nothing (no error)', async () => {
    const response = await search({ q: 'the of and for my a' });
    expect(response.capabilities).toEqual([]);
    expect(response.count).toBe(0);
  });

  test.each([
    "a & | ! ( ) :* '",
    "certificate & | ! ( ) :* ' transparency",
    "crt:* & !pdf | ('",
    'o\'brien\'s \\ back\\slash <-> "quoted"',
    'http://example.com/x:y?a=1&b=2',
    '%_ ; DROP TABLE registry.capabilities; --',
  ])('tsquery syntax in q is plain text: %j', async (q) => {
    await expect(search({ q })).resolves.toMatchObject({ ok: true });
  });

  test('tsquery operators do not change the meaning: "!crt" still finds crt', async () => {
    // crt-batch-plan says crt too (slug and description), below crt itself.
    expect(slugs(await search({ q: '!crt' }))).toEqual(['crt', 'crt-batch-plan']);
    expect(slugs(await search({ q: "certificate & | ! ( ) :* ' transparency" }))[0]).toBe('crt');
    // The SQL-injection-shaped q above left the table intact.
    expect(await env.prisma.capability.count()).toBe(MANIFESTS.length + SYNTHETIC_MANIFESTS.length);
  });
});
