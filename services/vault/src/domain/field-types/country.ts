import { alpha2ToAlpha3, alpha3ToAlpha2, getNames } from 'i18n-iso-countries';
import { cleanLine, upperAscii } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * Countries, stored as ISO 3166-1 alpha-2 codes ("DE"). Accepted: an alpha-2 code, an alpha-3 code
 * ("DEU") or an English name or common alias ("Germany", "United Kingdom", "UK", "Côte d'Ivoire"),
 * in any case, accents optional. A name that stands for two countries ("Congo") is refused rather
 * than guessed.
 */
export const COUNTRY_MAX = 64;
const RULE = 'must be an ISO 3166-1 country: an alpha-2 code (DE), an alpha-3 code (DEU) or an English name';

/** Lower case, accents stripped, spaces collapsed: "Côte  d'Ivoire" → "cote d'ivoire". */
function nameKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

let byName: Map<string, string | null> | undefined;

/** English names and aliases → alpha-2; null marks a name shared by two countries. Built once. */
function englishNames(): Map<string, string | null> {
  if (byName) return byName;
  const map = new Map<string, string | null>();
  for (const [code, names] of Object.entries(getNames('en', { select: 'all' }))) {
    for (const name of names) {
      const key = nameKey(name);
      const seen = map.get(key);
      map.set(key, seen === undefined || seen === code ? code : null);
    }
  }
  byName = map;
  return map;
}

export function normalizeCountry(value: string): NormalizeResult {
  const cleaned = cleanLine(value, COUNTRY_MAX);
  if (!cleaned.ok) return cleaned;
  const text = cleaned.value;
  const upper = upperAscii(text) ?? '';
  if (/^[A-Z]{2}$/.test(upper) && alpha2ToAlpha3(upper) !== undefined) return ok(upper);
  if (/^[A-Z]{3}$/.test(upper)) {
    const alpha2 = alpha3ToAlpha2(upper);
    if (alpha2 !== undefined) return ok(alpha2);
  }
  const byEnglishName = englishNames().get(nameKey(text));
  return byEnglishName ? ok(byEnglishName) : fail(RULE);
}

/** Not secret on its own (a country is shared by millions): shown as stored. */
export function maskCountry(value: string): string {
  return value;
}
