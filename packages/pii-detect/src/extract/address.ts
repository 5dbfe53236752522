import { countryCode } from './countries';
import { type Line, type Token, tokens } from './lines';

/** An address part found in a segment; offsets are UTF-16 indexes of the page. */
export interface AddressPart {
  type: 'address_line' | 'postal_code' | 'city' | 'region' | 'country';
  value: string;
  start: number;
  end: number;
}

type Classified =
  | { kind: 'street'; streetWord: boolean }
  | { kind: 'postal_city'; parts: AddressPart[] }
  | { kind: 'state_zip'; parts: AddressPart[] }
  | { kind: 'postcode'; parts: AddressPart[] }
  | { kind: 'country'; parts: AddressPart[] }
  | { kind: 'city_like' }
  | { kind: 'other' };

/** Words that make a line a street (English; French and Spanish lead words). */
const STREET_WORDS = new Set([
  'street',
  'st',
  'road',
  'rd',
  'avenue',
  'ave',
  'av',
  'lane',
  'ln',
  'drive',
  'dr',
  'boulevard',
  'blvd',
  'way',
  'parkway',
  'pkwy',
  'court',
  'ct',
  'place',
  'pl',
  'square',
  'sq',
  'terrace',
  'close',
  'crescent',
  'highway',
  'hwy',
  'row',
  'mews',
  'gardens',
  'grove',
  'hill',
  'park',
  'walk',
  'rue',
  'chemin',
  'allée',
  'quai',
  'calle',
  'via',
  'piazza',
  'plaza',
  // German street words written apart: "Am Markt 3", "An der Alster 12".
  'straße',
  'strasse',
  'str',
  'weg',
  'platz',
  'allee',
  'gasse',
  'markt',
  'ring',
  'damm',
  'ufer',
]);
/** German and Dutch street names end in one of these ("Musterstraße", "Hauptstr.", "Keizersgracht"). */
const STREET_SUFFIXES = (
  'straße strasse str weg platz allee gasse ring damm ufer chaussee pfad steig markt gracht laan ' +
  'straat plein kade'
).split(' ');

/** House number: 12, 12a, 12-14, 12/1. */
const HOUSE_NUMBER = /^\d{1,5}[a-zA-Z]?(?:[-/]\d{1,5}[a-zA-Z]?)?$/;
/** A word of a street or city name (letters, with . ' - inside or after). */
const WORD = /^[\p{L}][\p{L}\p{M}'’.()-]*$/u;
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/;
const NL_POSTCODE_DIGITS = /^\d{4}$/;
const CONTINENTAL_POSTCODE = /^(?:[A-Z]{1,2}-)?\d{4,5}$/;
const US_ZIP = /^\d{5}(?:-\d{4})?$/;
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND ' +
    'OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR'
  ).split(' '),
);
const MAX_SEGMENT_LENGTH = 80;

const words = (list: readonly Token[]) => list.length > 0 && list.every((token) => WORD.test(token.text));

function part(type: AddressPart['type'], from: Token, to: Token, page: string): AddressPart {
  return { type, value: page.slice(from.start, to.end), start: from.start, end: to.end };
}

function hasStreetWord(list: readonly Token[]): boolean {
  return list.some((token) => {
    const word = token.text.toLowerCase().replace(/[.,]/g, '');
    return (
      STREET_WORDS.has(word) ||
      STREET_SUFFIXES.some((suffix) => word.length > suffix.length && word.endsWith(suffix))
    );
  });
}

/**
 * What a segment of an address is:
 * - street: "Musterstraße 12", "Hauptstr. 5a" (words, then a house number) or "221B Baker Street",
 *   "1600 Amphitheatre Pkwy" (a number, then words); `streetWord` when a word says "street";
 * - postal_city: "10115 Berlin", "D-10115 Berlin", "1012 AB Amsterdam", "London NW1 6XE",
 *   "Mountain View CA 94043";
 * - state_zip: "CA 94043" (US state and ZIP; the city is the segment before);
 * - postcode: "NW1 6XE" alone (UK; the city is the segment before);
 * - country: a name or code countries.ts knows;
 * - city_like: one to four words (possibly a city, when a postcode or state follows).
 */
export function classifySegment(segment: Line, page: string): Classified {
  if (segment.text.length > MAX_SEGMENT_LENGTH) return { kind: 'other' };
  const list = tokens(segment.text, segment.start);
  const first = list[0];
  const last = list[list.length - 1];
  if (first === undefined || last === undefined) return { kind: 'other' };

  const country = countryCode(segment.text);
  if (country !== null)
    return {
      kind: 'country',
      parts: [{ type: 'country', value: country, start: first.start, end: last.end }],
    };

  // US: "CA 94043", "Mountain View CA 94043".
  const state = list[list.length - 2];
  if (state !== undefined && US_STATES.has(state.text) && US_ZIP.test(last.text)) {
    const parts = [part('region', state, state, page), part('postal_code', last, last, page)];
    const city = list.slice(0, -2);
    const cityFirst = city[0];
    const cityLast = city[city.length - 1];
    if (cityFirst === undefined || cityLast === undefined) return { kind: 'state_zip', parts };
    if (!words(city)) return { kind: 'other' };
    return { kind: 'postal_city', parts: [part('city', cityFirst, cityLast, page), ...parts] };
  }

  // UK: "NW1 6XE", "London NW1 6XE".
  const outward = list[list.length - 2];
  if (outward !== undefined && UK_POSTCODE.test(`${outward.text} ${last.text}`)) {
    const postcode = part('postal_code', outward, last, page);
    const city = list.slice(0, -2);
    const cityFirst = city[0];
    const cityLast = city[city.length - 1];
    if (cityFirst === undefined || cityLast === undefined) return { kind: 'postcode', parts: [postcode] };
    if (!words(city)) return { kind: 'other' };
    return { kind: 'postal_city', parts: [postcode, part('city', cityFirst, cityLast, page)] };
  }

  // Netherlands: "1012 AB Amsterdam".
  const second = list[1];
  if (
    second !== undefined &&
    NL_POSTCODE_DIGITS.test(first.text) &&
    /^[A-Z]{2}$/.test(second.text) &&
    list.length > 2
  ) {
    const city = list.slice(2);
    if (words(city)) {
      return {
        kind: 'postal_city',
        parts: [part('postal_code', first, second, page), part('city', list[2] ?? last, last, page)],
      };
    }
  }

  // A number then words with a street word is a street, not a postcode: "1600 Amphitheatre Pkwy".
  const leadingNumberStreet =
    list.length >= 2 && /^\d{1,5}[A-Za-z]?$/.test(first.text) && words(list.slice(1));
  if (leadingNumberStreet && hasStreetWord(list.slice(1))) return { kind: 'street', streetWord: true };

  // Continental: "10115 Berlin", "D-10115 Berlin", "8001 Zürich", "75008 Paris".
  if (CONTINENTAL_POSTCODE.test(first.text) && list.length > 1 && words(list.slice(1))) {
    const postal = { ...part('postal_code', first, first, page) };
    // "D-10115": the postcode is the digits; the country prefix is left to a country line.
    const dash = first.text.indexOf('-');
    if (dash !== -1) {
      postal.start = first.start + dash + 1;
      postal.value = first.text.slice(dash + 1);
    }
    return { kind: 'postal_city', parts: [postal, part('city', second ?? last, last, page)] };
  }

  // Streets.
  if (list.length >= 2 && HOUSE_NUMBER.test(last.text) && words(list.slice(0, -1))) {
    return { kind: 'street', streetWord: hasStreetWord(list.slice(0, -1)) };
  }
  if (leadingNumberStreet) return { kind: 'street', streetWord: false };
  if (list.length <= 4 && words(list)) return { kind: 'city_like' };
  return { kind: 'other' };
}

/**
 * The parts of an address written in `segments` (in reading order, one address): streets become
 * `address_line` (the second one `address_line_2`), a postcode + city line gives `postal_code` and
 * `city`, a US state `region`, a country line `country`. A city-like segment is the city when a
 * lone postcode or US state + ZIP follows it ("Mountain View, CA 94043", "London\nNW1 6XE"), or,
 * when no city was found otherwise, when it follows the street ("221B Baker Street, London, UK").
 */
export function readAddress(
  segments: readonly Line[],
  page: string,
): { parts: (AddressPart & { field_name: string })[]; recognised: number } {
  const parts: (AddressPart & { field_name: string })[] = [];
  let streets = 0;
  let recognised = 0;
  let pendingCity: Line | null = null;
  let lateCity: Line | null = null;
  const add = (found: readonly AddressPart[]) => {
    for (const one of found) parts.push({ ...one, field_name: one.type });
  };
  const city = (segment: Line): AddressPart => ({
    type: 'city',
    value: segment.text,
    start: segment.start,
    end: segment.start + segment.text.length,
  });
  for (const segment of segments) {
    const classified = classifySegment(segment, page);
    if (classified.kind !== 'other') recognised += 1;
    switch (classified.kind) {
      case 'street':
        streets += 1;
        parts.push({
          type: 'address_line',
          field_name: streets === 1 ? 'address_line' : 'address_line_2',
          value: segment.text,
          start: segment.start,
          end: segment.start + segment.text.length,
        });
        break;
      case 'state_zip':
      case 'postcode':
        if (pendingCity !== null) add([city(pendingCity)]);
        add(classified.parts);
        break;
      case 'postal_city':
      case 'country':
        add(classified.parts);
        break;
      case 'city_like':
        if (streets > 0 && lateCity === null) lateCity = segment;
        break;
    }
    pendingCity = classified.kind === 'city_like' ? segment : null;
  }
  if (lateCity !== null && !parts.some((one) => one.type === 'city')) add([city(lateCity)]);
  return { parts, recognised };
}
