import { type Candidate, extractCandidates } from '../src/index';
import { CV_HEADER, GERMAN_BANK_LETTER, INVOICE, MULTI_PAGE, NOISY, ONBOARDING_FORM } from './fixtures';

type Row = [
  type: string,
  value: string,
  confidence: number,
  page: number,
  spanText: string,
  fieldName?: string,
];

/** Candidates as rows: the text their span covers (code points of their page) instead of offsets. */
function rows(pages: string[]): Row[] {
  return extractCandidates(pages).map((candidate) => {
    const text = Array.from(pages[candidate.page - 1] ?? '')
      .slice(candidate.span.start, candidate.span.end)
      .join('');
    const row: Row = [candidate.type, candidate.value, candidate.confidence, candidate.page, text];
    if (candidate.field_name !== candidate.type) row.push(candidate.field_name);
    return row;
  });
}

/** Values stored as written: their span covers exactly the value. */
const VERBATIM = new Set([
  'given_name',
  'middle_name',
  'family_name',
  'email',
  'phone',
  'address_line',
  'postal_code',
  'city',
  'region',
  'national_id',
  'tax_id',
  'company',
]);

function checkInvariants(pages: string[], candidates: Candidate[]) {
  for (const candidate of candidates) {
    expect(candidate.field_name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
    expect(candidate.confidence).toBeGreaterThan(0);
    expect(candidate.confidence).toBeLessThanOrEqual(1);
    expect(candidate.span.end).toBeGreaterThan(candidate.span.start);
    const chars = Array.from(pages[candidate.page - 1] ?? '');
    expect(candidate.span.end).toBeLessThanOrEqual(chars.length);
    if (VERBATIM.has(candidate.type)) {
      expect(chars.slice(candidate.span.start, candidate.span.end).join('')).toBe(candidate.value);
    }
  }
  const keys = candidates.map((candidate) => `${candidate.type}|${candidate.value}`);
  expect(new Set(keys).size).toBe(keys.length);
}

describe('realistic documents', () => {
  test('a German bank letter: recipient block, labelled account data; the letterhead is not the client', () => {
    expect(rows([GERMAN_BANK_LETTER])).toEqual([
      // The recipient line above the address (0.5); "Kontoinhaber: Max Mustermann" (0.8) merges into it.
      ['given_name', 'Max', 0.65, 1, 'Max'],
      ['full_name', 'Max Mustermann', 0.8, 1, 'Max Mustermann'],
      ['family_name', 'Mustermann', 0.65, 1, 'Mustermann'],
      ['address_line', 'Musterstraße 12', 0.75, 1, 'Musterstraße 12'],
      ['postal_code', '10115', 0.75, 1, '10115'],
      ['city', 'Berlin', 0.75, 1, 'Berlin'],
      ['iban', 'DE89370400440532013000', 0.99, 1, 'DE89 3704 0044 0532 0130 00'],
      ['date_of_birth', '1984-03-15', 0.9, 1, '15.03.1984'],
      ['tax_id', '12 345 678 901', 0.9, 1, '12 345 678 901'],
      ['phone', '030 1234567', 0.9, 1, '030 1234567'],
      ['email', 'max.mustermann@example.de', 0.97, 1, 'max.mustermann@example.de'],
    ]);
  });

  test('an English onboarding form: two-column lines, a date order hint, an indented address block', () => {
    expect(rows([ONBOARDING_FORM])).toEqual([
      ['given_name', 'Jane', 0.9, 1, 'Jane'],
      ['middle_name', 'Alexandra', 0.9, 1, 'Alexandra'],
      ['family_name', 'Doe', 0.9, 1, 'Doe'],
      // "(DD/MM/YYYY)" settles 04/07 as 4 July.
      ['date_of_birth', '1990-07-04', 0.9, 1, '04/07/1990'],
      ['email', 'jane.doe@example.com', 0.97, 1, 'jane.doe@example.com'],
      ['phone', '+44 7700 900123', 0.9, 1, '+44 7700 900123'],
      ['address_line', '221B Baker Street', 0.9, 1, '221B Baker Street'],
      ['city', 'London', 0.9, 1, 'London'],
      ['postal_code', 'NW1 6XE', 0.9, 1, 'NW1 6XE'],
      ['country', 'GB', 0.9, 1, 'United Kingdom'],
      ['passport_number', '533401372', 0.9, 1, '533401372'],
      ['national_id', 'QQ 12 34 56 C', 0.9, 1, 'QQ 12 34 56 C'],
      ['company', 'Acme Widgets Ltd', 0.9, 1, 'Acme Widgets Ltd'],
      ['tax_id', '1234567890', 0.9, 1, '1234567890'],
    ]);
  });

  test("a CV header: the name above the contact line, a US address; an employer's address is skipped", () => {
    expect(rows([CV_HEADER])).toEqual([
      ['given_name', 'Jane', 0.45, 1, 'Jane'],
      ['full_name', 'Jane A. Doe', 0.55, 1, 'Jane A. Doe'],
      ['middle_name', 'A.', 0.45, 1, 'A.'],
      ['family_name', 'Doe', 0.45, 1, 'Doe'],
      ['email', 'jane.doe@example.com', 0.9, 1, 'jane.doe@example.com'],
      ['phone', '+1 (650) 555-0199', 0.6, 1, '+1 (650) 555-0199'],
      ['address_line', '1600 Amphitheatre Pkwy', 0.75, 1, '1600 Amphitheatre Pkwy'],
      ['city', 'Mountain View', 0.75, 1, 'Mountain View'],
      ['region', 'CA', 0.75, 1, 'CA'],
      ['postal_code', '94043', 0.75, 1, '94043'],
    ]);
  });

  test('an invoice: card and IBAN found unlabelled; invoice and order numbers, dates and the fax are not', () => {
    expect(rows([INVOICE])).toEqual([
      ['given_name', 'Anna', 0.45, 1, 'Anna'],
      ['full_name', 'Anna Schmidt', 0.5, 1, 'Anna Schmidt'],
      ['family_name', 'Schmidt', 0.45, 1, 'Schmidt'],
      ['address_line', 'Hauptstr. 5a', 0.75, 1, 'Hauptstr. 5a'],
      ['postal_code', '80331', 0.75, 1, '80331'],
      ['city', 'München', 0.75, 1, 'München'],
      ['country', 'DE', 0.75, 1, 'Deutschland'],
      ['payment_card', '4111111111111111', 0.85, 1, '4111 1111 1111 1111'],
      ['iban', 'DE02120300000000202051', 0.95, 1, 'DE02 1203 0000 0000 2020 51'],
      ['email', 'billing@shop.example.com', 0.9, 1, 'billing@shop.example.com'],
    ]);
  });

  test('pages: page numbers are 1-based, spans are per page; a value on two pages is one candidate (first span)', () => {
    expect(rows(MULTI_PAGE)).toEqual([
      // "Kontoinhaberin: Doe, Jane" on page 3 is the same full name, "Jane Doe".
      ['given_name', 'Jane', 0.75, 1, 'Jane'],
      ['full_name', 'Jane Doe', 0.9, 1, 'Jane Doe'],
      ['family_name', 'Doe', 0.75, 1, 'Doe'],
      // Labelled on page 2 (0.97) and found again unlabelled on the same page.
      ['email', 'jane@example.com', 0.97, 2, 'jane@example.com'],
      // "DOB 1984-03-15" on page 2; "born on 15 March 1984" on page 3 is the same date.
      ['date_of_birth', '1984-03-15', 0.9, 2, '1984-03-15'],
      ['payment_card', '5555555555554444', 0.95, 3, '5555-5555-5555-4444'],
    ]);
  });

  test('near misses: invalid IBAN, Luhn-failing numbers, order and tracking numbers, other dates, prose', () => {
    expect(rows([NOISY])).toEqual([
      ['phone', '555-123-4567', 0.6, 1, '555-123-4567'],
      ['email', 'ann@example.org', 0.9, 1, 'ann@example.org'],
    ]);
  });

  test.each([
    ['GERMAN_BANK_LETTER', [GERMAN_BANK_LETTER]],
    ['ONBOARDING_FORM', [ONBOARDING_FORM]],
    ['CV_HEADER', [CV_HEADER]],
    ['INVOICE', [INVOICE]],
    ['MULTI_PAGE', MULTI_PAGE],
    ['NOISY', [NOISY]],
  ])(
    '%s: valid field names, confidences in (0, 1], spans inside the page, verbatim values under their span, no duplicates',
    (_name, pages) => {
      checkInvariants(pages, extractCandidates(pages));
    },
  );

  test('deterministic: the same pages give the same candidates', () => {
    expect(extractCandidates(MULTI_PAGE)).toEqual(extractCandidates([...MULTI_PAGE]));
  });
});

describe('CV header', () => {
  test('the name under a "Curriculum Vitae" title; no name without contact details below it', () => {
    const cv = 'Curriculum Vitae\n\nJohn Smith\njohn.smith@example.com\n';
    expect(extractCandidates([cv]).map(({ type, value }) => [type, value])).toEqual([
      ['given_name', 'John'],
      ['full_name', 'John Smith'],
      ['family_name', 'Smith'],
      ['email', 'john.smith@example.com'],
    ]);
    expect(extractCandidates(['John Smith\nWrites about gardens.\n'])).toEqual([]);
    expect(extractCandidates(['Quarterly Report\nSee sales@example.com'])).toEqual([
      expect.objectContaining({ type: 'email' }),
    ]);
  });
});

describe('spans', () => {
  test('are Unicode code points: emoji (two UTF-16 units each) before the values', () => {
    const page = '😀😀 Kontakt 🏠\nIBAN: DE89 3704 0044 0532 0130 00\n👋 Geburtsdatum: 15.03.1984';
    const candidates = extractCandidates([page]);
    expect(candidates.map(({ type, span }) => [type, span])).toEqual([
      // UTF-16: the IBAN starts at unit 22, but at code point 19 (three emoji before it).
      ['iban', { start: 19, end: 46 }],
      ['date_of_birth', { start: 63, end: 73 }],
    ]);
    expect(page.indexOf('DE89')).toBe(22);
    const chars = Array.from(page);
    expect(chars.slice(19, 46).join('')).toBe('DE89 3704 0044 0532 0130 00');
    expect(chars.slice(63, 73).join('')).toBe('15.03.1984');
  });

  test('Windows line breaks do not shift offsets', () => {
    const page = 'Name: Jane Doe\r\nE-mail: jane@example.com\r\n';
    const email = extractCandidates([page]).find((candidate) => candidate.type === 'email');
    expect(email?.span).toEqual({ start: 24, end: 40 });
    expect(page.slice(24, 40)).toBe('jane@example.com');
  });
});

describe('labels', () => {
  /** [type, value, field_name] of the candidates of one line. */
  const found = (text: string) =>
    extractCandidates([text]).map((candidate) => [candidate.type, candidate.value, candidate.field_name]);

  test.each([
    ['Date of birth: 1984-03-15', 'date_of_birth', '1984-03-15'],
    ['DOB: 15/03/1984', 'date_of_birth', '1984-03-15'],
    ['D.O.B. 03/15/1984', 'date_of_birth', '1984-03-15'],
    ['Geburtsdatum: 15.03.1984', 'date_of_birth', '1984-03-15'],
    ['Geb.-Datum: 15. März 1984', 'date_of_birth', '1984-03-15'],
    ['Birthday: March 15, 1984', 'date_of_birth', '1984-03-15'],
    ['geboren am 15.03.1984 in Köln', 'date_of_birth', '1984-03-15'],
    ['First name: Jane', 'given_name', 'Jane'],
    ['Vorname: Jürgen', 'given_name', 'Jürgen'],
    ['Surname: O’Brien', 'family_name', 'O’Brien'],
    ['Nachname: von der Leyen', 'family_name', 'von der Leyen'],
    ['Passport No.: c01x00t47', 'passport_number', 'C01X00T47'],
    ['Reisepassnummer: C01X00T47', 'passport_number', 'C01X00T47'],
    ['Personalausweisnummer: T22000129', 'national_id', 'T22000129'],
    ['SSN: 123-45-6789', 'national_id', '123-45-6789'],
    ['Tax ID: 12-3456789', 'tax_id', '12-3456789'],
    ['Steuer-ID: 12 345 678 901', 'tax_id', '12 345 678 901'],
    ['Steuernummer: 21/815/08150', 'tax_id', '21/815/08150'],
    ['Company: Example Systems GmbH', 'company', 'Example Systems GmbH'],
    ['Arbeitgeber: Beispiel & Söhne KG', 'company', 'Beispiel & Söhne KG'],
    ['Phone: +49 30 1234567', 'phone', '+49 30 1234567'],
    ['Tel. 030 1234567', 'phone', '030 1234567'],
    ['Handy: 0151 12345678', 'phone', '0151 12345678'],
    ['E-mail: jane@example.com', 'email', 'jane@example.com'],
    ['IBAN: gb29 nwbk 6016 1331 9268 19', 'iban', 'GB29NWBK60161331926819'],
    ['Card number: 3782 822463 10005', 'payment_card', '378282246310005'],
    ['City: Frankfurt am Main', 'city', 'Frankfurt am Main'],
    ['PLZ: 10115', 'postal_code', '10115'],
    ['Country: Deutschland', 'country', 'DE'],
    ['Land: Österreich', 'country', 'AT'],
    ['State: California', 'region', 'California'],
  ])('%s → %s %s', (line, type, value) => {
    expect(found(line)).toEqual([[type, value, type]]);
  });

  test('names: a full name gives its parts; "Family, Given" is read in that order; titles are dropped', () => {
    expect(found('Name: Dr. Jane Alexandra Doe')).toEqual([
      ['given_name', 'Jane', 'given_name'],
      ['full_name', 'Jane Alexandra Doe', 'full_name'],
      ['middle_name', 'Alexandra', 'middle_name'],
      ['family_name', 'Doe', 'family_name'],
    ]);
    expect(found('Name, Vorname: Mustermann, Max')).toEqual([
      ['family_name', 'Mustermann', 'family_name'],
      ['full_name', 'Max Mustermann', 'full_name'],
      ['given_name', 'Max', 'given_name'],
    ]);
    expect(found('Full name: Ludwig van Beethoven')).toContainEqual([
      'family_name',
      'van Beethoven',
      'family_name',
    ]);
  });

  test('the value may sit in the next column or on the next line', () => {
    expect(found('Date of birth        15.03.1984')).toEqual([
      ['date_of_birth', '1984-03-15', 'date_of_birth'],
    ]);
    expect(found('IBAN:\nDE89 3704 0044 0532 0130 00')).toEqual([['iban', 'DE89370400440532013000', 'iban']]);
  });

  test('form columns joined by single spaces (as a PDF reader may render them) are cut at each label', () => {
    expect(found('Name: Jane Doe Date of birth: 15.03.1984 E-mail: jane@example.com')).toEqual([
      ['given_name', 'Jane', 'given_name'],
      ['full_name', 'Jane Doe', 'full_name'],
      ['family_name', 'Doe', 'family_name'],
      ['date_of_birth', '1984-03-15', 'date_of_birth'],
      ['email', 'jane@example.com', 'email'],
    ]);
    // A colon inside a value that is not after a label changes nothing.
    expect(found('Company: Example Ltd, open 09:00-17:00')).toEqual([
      ['company', 'Example Ltd, open 09:00-17:00', 'company'],
    ]);
  });

  test('field names beyond the type: a second street line, a VAT number', () => {
    expect(
      found('Address line 1: Flat 2\nAddress line 2: 10 Downing Street\nUSt-IdNr.: DE123456789'),
    ).toEqual([
      ['address_line', 'Flat 2', 'address_line'],
      ['address_line', '10 Downing Street', 'address_line_2'],
      ['tax_id', 'DE123456789', 'vat_id'],
    ]);
  });

  test('labelled values that fail their rule give nothing', () => {
    for (const line of [
      'IBAN: DE89 3704 0044 0532 0130 01',
      'Card number: 4111 1111 1111 1112',
      'Date of birth: 31.02.1984',
      'Date of birth: unknown',
      'Passport No.: none',
      'Tax ID: pending',
      'Country: Atlantis',
      'First name: 12345',
      'E-mail: jane at example dot com',
    ]) {
      expect([line, found(line)]).toEqual([line, []]);
    }
  });

  test('a labelled value claims its text: no phone out of a tax number, none out of an order number or a fax', () => {
    expect(found('Tax ID: 123 456 7890')).toEqual([['tax_id', '123 456 7890', 'tax_id']]);
    expect(found('Order number: 030 1234 5678\nFax: +49 89 1234 5678\nKundennummer: 0151 12345678')).toEqual(
      [],
    );
    // Unlabelled, the same number is a phone.
    expect(found('Ring 030 1234 5678 tomorrow')).toEqual([['phone', '030 1234 5678', 'phone']]);
  });

  test('a valid IBAN or an e-mail address survives a label of another type; only "ignore" labels hide them', () => {
    expect(found('Account number: DE89 3704 0044 0532 0130 00')).toEqual([
      ['iban', 'DE89370400440532013000', 'iban'],
    ]);
    expect(found('Company: Acme Ltd, info@acme.example')).toEqual([
      ['company', 'Acme Ltd, info@acme.example', 'company'],
      ['email', 'info@acme.example', 'email'],
    ]);
    expect(found('Reference: DE89 3704 0044 0532 0130 00')).toEqual([]);
  });

  test('a labelled phone in a shape the detector refuses is still proposed, lower', () => {
    expect(
      extractCandidates(['Tel.: 030/1234567']).map(({ type, value, confidence }) => [
        type,
        value,
        confidence,
      ]),
    ).toEqual([['phone', '030/1234567', 0.8]]);
    expect(found('Phone: call after 6pm')).toEqual([]);
  });

  test('only birth dates: document dates, labelled or not, are never proposed', () => {
    expect(
      found('Invoice date: 21.11.2026\nDatum: 01.02.2026\nMeeting on 2026-11-21\nValid until 31.12.2030'),
    ).toEqual([]);
  });
});

describe('postal addresses', () => {
  const parts = (text: string) =>
    extractCandidates([text])
      .filter((candidate) =>
        ['address_line', 'postal_code', 'city', 'region', 'country'].includes(candidate.type),
      )
      .map((candidate) => [candidate.type, candidate.value]);

  test.each([
    [
      'Musterstraße 12, 10115 Berlin',
      [
        ['address_line', 'Musterstraße 12'],
        ['postal_code', '10115'],
        ['city', 'Berlin'],
      ],
    ],
    [
      '221B Baker Street\nLondon NW1 6XE',
      [
        ['address_line', '221B Baker Street'],
        ['city', 'London'],
        ['postal_code', 'NW1 6XE'],
      ],
    ],
    [
      '1600 Amphitheatre Pkwy, Mountain View, CA 94043',
      [
        ['address_line', '1600 Amphitheatre Pkwy'],
        ['city', 'Mountain View'],
        ['region', 'CA'],
        ['postal_code', '94043'],
      ],
    ],
    [
      'Keizersgracht 123\n1015 CJ Amsterdam\nNetherlands',
      [
        ['address_line', 'Keizersgracht 123'],
        ['postal_code', '1015 CJ'],
        ['city', 'Amsterdam'],
        ['country', 'NL'],
      ],
    ],
    [
      'Bahnhofstrasse 1\nCH-8001 Zürich\nSchweiz',
      [
        ['address_line', 'Bahnhofstrasse 1'],
        ['postal_code', '8001'],
        ['city', 'Zürich'],
        ['country', 'CH'],
      ],
    ],
  ])('unlabelled: %j', (text, expected) => {
    expect(parts(text)).toEqual(expected);
  });

  test('labelled: "Address:" with the rest on following lines, and "PLZ/Ort:"', () => {
    expect(parts('Anschrift:\nAm Markt 3\n04109 Leipzig\n\nOther text: 10115 Berlin')).toEqual([
      ['address_line', 'Am Markt 3'],
      ['postal_code', '04109'],
      ['city', 'Leipzig'],
    ]);
    expect(parts('Straße: Hauptstr. 5\nPLZ/Ort: 80331 München')).toEqual([
      ['address_line', 'Hauptstr. 5'],
      ['postal_code', '80331'],
      ['city', 'München'],
    ]);
    expect(extractCandidates(['Address: 10 Main Road, Springfield, IL 62704'])[0]?.confidence).toBe(0.9);
  });

  test('not addresses: a postcode + city without a street, a street word without a postcode, a company letterhead', () => {
    expect(parts('The 2024 Annual Report\n10115 Berlin')).toEqual([]);
    expect(parts('We met at Example Street 5 yesterday')).toEqual([]);
    expect(parts('Musterbank AG · Bankstraße 1 · 60311 Frankfurt am Main')).toEqual([]);
    expect(parts('Example Systems GmbH\nIndustriestraße 7\n70565 Stuttgart')).toEqual([]);
  });
});

describe('bounds', () => {
  test('a megabyte of adversarial text finishes quickly (no backtracking blow-up)', () => {
    const shapes = [
      'Name: '.repeat(200_000),
      `Address: ${'Musterstraße 12, '.repeat(60_000)}`,
      `${'a'.repeat(300)}\n`.repeat(3_300),
      '1 '.repeat(500_000),
      ':'.repeat(1_000_000),
      'Date of birth: 15 '.repeat(55_000),
      `${'Musterstraße 12\n10115 Berlin\n'.repeat(35_000)}`,
      `${'Name: '.repeat(49)}\n`.repeat(3_400),
      `${'a:'.repeat(149)}\n`.repeat(3_350),
      `${'Date of birth: 15.03.1984 '.repeat(11)}\n`.repeat(3_500),
      `${'Family name, given name: '.repeat(11)}\n`.repeat(3_500),
    ];
    // Against a baseline measured in the same run, not a wall-clock limit (this machine is shared:
    // an absolute limit fails under load): a megabyte of ordinary letter text. Backtracking blows up
    // by orders of magnitude (quadratic on 1 MB is ~10^12 steps), so 50x the baseline (at least 1 s)
    // separates "linear" from "blown up" whatever the load.
    const ordinary = 'Dear Ms Example, your IBAN DE89 3704 0044 0532 0130 00 is noted. Kind regards\n'.repeat(
      13_000,
    );
    const timed = (text: string): number => {
      const started = performance.now();
      extractCandidates([text]);
      return performance.now() - started;
    };
    const baselineMs = Math.min(timed(ordinary), timed(ordinary));
    const limitMs = Math.max(1_000, 50 * baselineMs);
    for (const text of shapes) {
      const ms = timed(text);
      expect({ ms, limitMs, baselineMs, ok: ms < limitMs }).toMatchObject({ ok: true });
    }
  });

  test('no pages, empty pages', () => {
    expect(extractCandidates([])).toEqual([]);
    expect(extractCandidates(['', '\n\n'])).toEqual([]);
  });
});
