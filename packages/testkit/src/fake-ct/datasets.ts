import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The answer shapes of the two certificate-transparency providers the crt worker reads, as the
 * real services send them (see the recorded fixtures in packages/testkit/fixtures/ct/).
 */

/** One row of `GET https://crt.sh/?q=%25.<apex>&output=json` (one row per logged (pre)certificate). */
export const CrtShRow = z.object({
  issuer_ca_id: z.number().int(),
  issuer_name: z.string(),
  common_name: z.string(),
  /** Every name of the certificate, separated by `\n` (SAN dNSNames, sometimes e-mail addresses). */
  name_value: z.string(),
  id: z.number().int(),
  /** CT log entry time, UTC without a zone (`2024-03-05T12:34:56.789`, fraction of 0–3 digits); may be null. */
  entry_timestamp: z.string().nullable(),
  /** UTC without a zone (`2024-03-05T11:34:56`). */
  not_before: z.string(),
  not_after: z.string(),
  serial_number: z.string(),
  result_count: z.number().int(),
});
export type CrtShRow = z.infer<typeof CrtShRow>;

/** One issuance of `GET https://api.certspotter.com/v1/issuances?domain=…&expand=dns_names`. */
export const CertSpotterIssuance = z.object({
  /** Decimal string, increasing in discovery order: the `after` cursor of the next page. */
  id: z.string().regex(/^\d+$/),
  tbs_sha256: z.string(),
  cert_sha256: z.string(),
  /** Only sent with `expand=dns_names`. */
  dns_names: z.array(z.string()),
  pubkey_sha256: z.string(),
  /** RFC 3339 UTC (`2024-03-05T11:34:56Z`). */
  not_before: z.string(),
  not_after: z.string(),
  revoked: z.boolean(),
});
export type CertSpotterIssuance = z.infer<typeof CertSpotterIssuance>;

/** What the fake serves for one apex: both providers' answers. */
export interface CtDataset {
  crtSh: CrtShRow[];
  /** Served in pages of `certSpotterPageSize`, in this order; `after=<id>` resumes after that id. */
  certSpotter: CertSpotterIssuance[];
}

/** A certificate described once, turned into both providers' shapes by ctDatasetFromCertificates(). */
export interface FakeCertificate {
  /** Names as logged: any case, `*.` wildcards, e-mail addresses and foreign names are allowed. */
  names: string[];
  /** crt.sh entry_timestamp, UTC without a zone (`2024-03-05T12:34:56.789`); null: crt.sh sends null. */
  loggedAt: string | null;
  /** UTC without a zone (`2024-03-05T11:34:56`); Cert Spotter's not_before is this plus `Z`. */
  notBefore: string;
  /** Default: notBefore + 90 days. */
  notAfter?: string;
  /** Default: the first name. */
  commonName?: string;
  /** Default: Let's Encrypt R11. */
  issuerName?: string;
}

const LETS_ENCRYPT_R11 = { id: 295815, name: "C=US, O=Let's Encrypt, CN=R11" };
const NINETY_DAYS_MS = 90 * 24 * 3_600_000;
// First ids of generated rows: the size of the real services' ids in 2024.
const CRT_SH_FIRST_ID = 12_000_000_000;
const CERT_SPOTTER_FIRST_ID = 4_700_000_000;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `2024-03-05T11:34:56` (UTC, no zone) + ms → the same format. */
function addMs(utcWithoutZone: string, ms: number): string {
  return new Date(Date.parse(`${utcWithoutZone}Z`) + ms).toISOString().slice(0, 19);
}

/**
 * Both providers' answers for a list of certificates: one crt.sh row and one Cert Spotter issuance
 * per certificate (ids increasing in list order). Cert Spotter indexes DNS names only, so e-mail
 * addresses are left out of its `dns_names`.
 */
export function ctDatasetFromCertificates(certificates: readonly FakeCertificate[]): CtDataset {
  const crtSh: CrtShRow[] = [];
  const certSpotter: CertSpotterIssuance[] = [];
  certificates.forEach((cert, index) => {
    const notAfter = cert.notAfter ?? addMs(cert.notBefore, NINETY_DAYS_MS);
    const digest = sha256Hex(`${index}|${cert.names.join(',')}|${cert.notBefore}`);
    crtSh.push({
      issuer_ca_id: cert.issuerName === undefined ? LETS_ENCRYPT_R11.id : 100_000 + index,
      issuer_name: cert.issuerName ?? LETS_ENCRYPT_R11.name,
      common_name: cert.commonName ?? cert.names[0] ?? '',
      name_value: cert.names.join('\n'),
      id: CRT_SH_FIRST_ID + index * 7,
      entry_timestamp: cert.loggedAt,
      not_before: cert.notBefore,
      not_after: notAfter,
      serial_number: `04${digest.slice(0, 32)}`,
      result_count: cert.names.length,
    });
    certSpotter.push({
      id: String(CERT_SPOTTER_FIRST_ID + index * 13),
      tbs_sha256: sha256Hex(`tbs|${digest}`),
      cert_sha256: sha256Hex(`cert|${digest}`),
      dns_names: cert.names.filter((name) => !name.includes('@')),
      pubkey_sha256: sha256Hex(`key|${cert.names[0] ?? ''}`),
      not_before: `${cert.notBefore}Z`,
      not_after: `${notAfter}Z`,
      revoked: false,
    });
  });
  return { crtSh, certSpotter };
}

export interface CertSpotterPageQuery {
  apex: string;
  /** `include_subdomains=true`; otherwise only issuances naming the apex itself. */
  subdomains: boolean;
  /** `expand=dns_names`; otherwise the issuances come without `dns_names`, as from the real API. */
  expand: boolean;
  /** The `after` cursor: issuances with a greater id. */
  after: string | null;
  pageSize: number;
}

/** One page of a Cert Spotter listing, as the real API pages it. */
export function certSpotterPage(
  issuances: readonly CertSpotterIssuance[],
  query: CertSpotterPageQuery,
): unknown[] {
  let selected = issuances;
  if (!query.subdomains) {
    selected = selected.filter((issuance) =>
      issuance.dns_names.some((name) => name.toLowerCase() === query.apex),
    );
  }
  if (query.after !== null) {
    const cursor = BigInt(query.after);
    selected = selected.filter((issuance) => BigInt(issuance.id) > cursor);
  }
  const page = selected.slice(0, query.pageSize);
  if (query.expand) return page;
  return page.map(({ dns_names: _omitted, ...rest }) => rest);
}

// packages/testkit/fixtures/ct, from src/fake-ct (tsx and jest both run this file from its source).
const FIXTURES_DIR = join(__dirname, '..', '..', 'fixtures', 'ct');

function readFixture<T>(name: string, schema: z.ZodType<T>): T {
  return schema.parse(JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8')));
}

/**
 * The recorded-shape answers for example.com: crt.sh with wildcards, precertificate duplicates,
 * mixed case, an e-mail address, names outside the apex, invalid names, several names per row and a
 * null entry_timestamp; Cert Spotter in two pages of 5 and 3 (with `certSpotterPageSize: 5`).
 */
export function exampleComDataset(): CtDataset {
  const crtSh = readFixture('crtsh-example-com.json', z.array(CrtShRow));
  const page1 = readFixture('certspotter-example-com-page-1.json', z.array(CertSpotterIssuance));
  const page2 = readFixture('certspotter-example-com-page-2.json', z.array(CertSpotterIssuance));
  return { crtSh, certSpotter: [...page1, ...page2] };
}

export const ExpectedObservation = z.object({
  hostname: z.string(),
  /** RFC 3339 UTC with milliseconds (`…T00:00:00.000Z`): compare instants, not strings. */
  first_seen: z.string(),
});
export type ExpectedObservation = z.infer<typeof ExpectedObservation>;

const ExpectedExampleCom = z.object({
  'crt.sh': z.array(ExpectedObservation),
  certspotter: z.array(ExpectedObservation),
});

/** What the design's observation rules make of exampleComDataset(), per provider, sorted by hostname. */
export function exampleComExpectedObservations(): z.infer<typeof ExpectedExampleCom> {
  return readFixture('expected-example-com.json', ExpectedExampleCom);
}
