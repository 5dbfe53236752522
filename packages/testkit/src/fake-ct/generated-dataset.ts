import { createHash } from 'node:crypto';
import { type CtDataset, ctDatasetFromCertificates, type FakeCertificate } from './datasets';

/**
 * A realistic data set for any apex the fake was not given: a few dozen certificates over ~5 years
 * with wildcards, precertificate/certificate pairs (same names, logged twice), mixed case, an
 * e-mail address and a name outside the apex. Deterministic: the same apex always gives the same
 * answer (seeded from SHA-256 of the apex), so runs against the fake are reproducible.
 */

const SUBDOMAIN_LABELS = [
  'www',
  'mail',
  'api',
  'dev',
  'staging',
  'vpn',
  'portal',
  'shop',
  'blog',
  'cdn',
  'static',
  'auth',
  'login',
  'admin',
  'app',
  'beta',
  'docs',
  'status',
  'support',
  'git',
  'ci',
  'grafana',
  'smtp',
  'autodiscover',
  'intranet',
  'files',
  'media',
  'eu.api',
  'us-east-1.app',
  'internal.dev',
];
const CERTIFICATE_COUNT = 40;
const START_MS = Date.UTC(2019, 0, 1); // the oldest generated certificate is from 2019
const SPAN_MS = 5 * 365 * 24 * 3_600_000; // ms: spread over 5 years

/** mulberry32: a tiny seeded PRNG; quality is irrelevant here, determinism is the point. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick() from an empty list');
  return item;
}

/** UTC without a zone, to the second (crt.sh's not_before) or with milliseconds (entry_timestamp). */
function utc(ms: number, withMs: boolean): string {
  return new Date(ms).toISOString().slice(0, withMs ? 23 : 19);
}

/** Upper-cases some letters, as some CAs and CSRs do. */
function mixCase(name: string, random: () => number): string {
  return [...name].map((ch) => (random() < 0.5 ? ch.toUpperCase() : ch)).join('');
}

function certificateNames(apex: string, random: () => number): string[] {
  const count = 1 + Math.floor(random() * 4);
  const names = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const roll = random();
    const label = pick(SUBDOMAIN_LABELS, random);
    if (roll < 0.12) names.add(`*.${apex}`);
    else if (roll < 0.2) names.add(apex);
    else if (roll < 0.28) names.add(`*.${label}.${apex}`);
    else if (roll < 0.36) names.add(mixCase(`${label}.${apex}`, random));
    else names.add(`${label}.${apex}`);
  }
  return [...names];
}

export function generatedDataset(apex: string): CtDataset {
  const digest = createHash('sha256').update(apex).digest();
  const random = seededRandom(digest.readUInt32BE(0));
  const certificates: FakeCertificate[] = [];
  while (certificates.length < CERTIFICATE_COUNT) {
    const issuedMs = START_MS + Math.floor(random() * SPAN_MS);
    const names = certificateNames(apex, random);
    const notBefore = utc(issuedMs - 3_600_000, false); // CAs backdate not_before by ~1 h
    // A precertificate is logged first, the final certificate a little later (crt.sh shows both rows).
    certificates.push({ names, loggedAt: utc(issuedMs, true), notBefore });
    if (random() < 0.3) certificates.push({ names, loggedAt: utc(issuedMs + 1_500, true), notBefore });
  }
  const firstLabel = apex.split('.')[0] ?? apex;
  certificates.push(
    {
      names: [`hostmaster@${apex}`],
      loggedAt: utc(START_MS + SPAN_MS / 2, true),
      notBefore: utc(START_MS, false),
    },
    {
      names: [`${firstLabel}-cdn.example.net`, `www.${apex}`],
      loggedAt: null, // crt.sh sometimes has no entry timestamp: consumers fall back to not_before
      notBefore: utc(START_MS + SPAN_MS / 3, false),
    },
  );
  return ctDatasetFromCertificates(certificates);
}
