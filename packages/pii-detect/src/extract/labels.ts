import { type CandidateType, CONFIDENCE } from './candidate';

/** What a label announces. */
export type LabelTarget =
  | { kind: 'field'; type: CandidateType; field_name: string; confidence?: number; name?: 'full' | 'part' }
  /** "Address:": the value and the lines below it are an address. */
  | { kind: 'address' }
  /** "PLZ/Ort:", "Postcode and city:": a postcode + city segment. */
  | { kind: 'postal_city' }
  /**
   * Labels whose values are not the person's data (order and invoice numbers, fax, dates of
   * documents, bank codes): nothing is proposed from them, and the unlabelled detectors' finds
   * inside them are dropped ("Order no.: 030 1234 5678" is not a phone number).
   */
  | { kind: 'ignore' };

const field = (
  type: CandidateType,
  extra: { field_name?: string; confidence?: number; name?: 'full' | 'part' } = {},
): LabelTarget => ({ kind: 'field', type, field_name: extra.field_name ?? type, ...extra });

const FULL_NAME = field('full_name', { name: 'full' });
const GIVEN = field('given_name', { name: 'part' });
const MIDDLE = field('middle_name', { name: 'part' });
const FAMILY = field('family_name', { name: 'part' });
const DOB = field('date_of_birth');
const EMAIL = field('email');
const PHONE = field('phone');
const ADDRESS: LabelTarget = { kind: 'address' };
const STREET = field('address_line');
const POSTAL_CITY: LabelTarget = { kind: 'postal_city' };
const IGNORE: LabelTarget = { kind: 'ignore' };

/**
 * Labels, English and German, normalised by normaliseLabel (lower case; dots, "*", "#" and
 * parenthesised hints removed; spaces collapsed): "Date of birth (DD/MM/YYYY)*:" → "date of birth".
 */
const LABELS: ReadonlyMap<string, LabelTarget> = new Map<string, LabelTarget>([
  // Names.
  ...names(
    [
      'name',
      'full name',
      'name of applicant',
      'applicant',
      'applicant name',
      'customer name',
      'your name',
      'legal name',
      'vor- und nachname',
      'vor und nachname',
      'vollständiger name',
      'name, vorname',
      'surname, first name',
      'last name, first name',
      'family name, given name',
    ],
    FULL_NAME,
  ),
  ...names(
    [
      'account holder',
      'account name',
      'kontoinhaber',
      'kontoinhaberin',
      'cardholder',
      'cardholder name',
      'karteninhaber',
    ],
    field('full_name', { name: 'full', confidence: CONFIDENCE.accountHolder }),
  ),
  ...names(
    [
      'first name',
      'first names',
      'given name',
      'given names',
      'forename',
      'forenames',
      'vorname',
      'vornamen',
      'rufname',
    ],
    GIVEN,
  ),
  ...names(['middle name', 'middle names', 'middle initial', 'zweiter vorname'], MIDDLE),
  ...names(['last name', 'surname', 'family name', 'nachname', 'familienname', 'zuname'], FAMILY),
  // Date of birth.
  ...names(
    [
      'date of birth',
      'birth date',
      'birthdate',
      'dob',
      'born',
      'birthday',
      'geburtsdatum',
      'geb-datum',
      'geboren am',
      'geboren',
      'geb',
      'born on',
      'date de naissance',
    ],
    DOB,
  ),
  // Contact.
  ...names(
    ['email', 'e-mail', 'email address', 'e-mail address', 'e-mail-adresse', 'mail', 'e-mail adresse'],
    EMAIL,
  ),
  ...names(
    [
      'phone',
      'phone number',
      'telephone',
      'telephone number',
      'tel',
      'mobile',
      'mobile number',
      'mobile phone',
      'cell',
      'cell phone',
      'telefon',
      'telefonnummer',
      'mobil',
      'mobilnummer',
      'handy',
      'mobiltelefon',
      'phone (mobile)',
      'contact number',
    ],
    PHONE,
  ),
  // Address.
  ...names(
    [
      'address',
      'home address',
      'postal address',
      'residential address',
      'mailing address',
      'current address',
      'anschrift',
      'adresse',
      'wohnanschrift',
      'postanschrift',
      'wohnadresse',
      'meldeadresse',
    ],
    ADDRESS,
  ),
  ...names(
    [
      'street',
      'street address',
      'address line 1',
      'straße',
      'strasse',
      'straße und hausnummer',
      'straße, hausnummer',
      'straße/hausnummer',
      'straße/nr',
      'straße und nr',
    ],
    STREET,
  ),
  ['address line 2', field('address_line', { field_name: 'address_line_2' })],
  ...names(['city', 'town', 'town/city', 'ort', 'wohnort', 'stadt'], field('city')),
  ...names(
    ['postcode', 'post code', 'postal code', 'zip', 'zip code', 'plz', 'postleitzahl'],
    field('postal_code'),
  ),
  ...names(
    [
      'plz/ort',
      'plz, ort',
      'plz ort',
      'plz und ort',
      'postcode and city',
      'postal code and city',
      'zip and city',
      'zip/city',
    ],
    POSTAL_CITY,
  ),
  ...names(['state', 'county', 'province', 'region', 'bundesland', 'kanton'], field('region')),
  ...names(['country', 'land', 'country of residence', 'wohnsitzland'], field('country')),
  // Money.
  ['iban', field('iban')],
  ...names(
    [
      'card number',
      'card no',
      'credit card',
      'credit card number',
      'debit card',
      'payment card',
      'kartennummer',
      'kreditkarte',
      'kreditkartennummer',
    ],
    field('payment_card'),
  ),
  // Identity documents and tax.
  ...names(
    [
      'passport no',
      'passport number',
      'passport nr',
      'passport',
      'passport-no',
      'reisepass',
      'reisepassnummer',
      'passnummer',
      'pass-nr',
      'pass nr',
    ],
    field('passport_number'),
  ),
  ...names(
    [
      'national id',
      'national id number',
      'national identity number',
      'id number',
      'id no',
      'id card number',
      'identity card number',
      'ssn',
      'social security number',
      'social security no',
      'national insurance number',
      'national insurance no',
      'ni number',
      'nino',
      'personalausweisnummer',
      'ausweisnummer',
      'personalausweis',
      'ausweis-nr',
      'personalausweis-nr',
      'sozialversicherungsnummer',
      'rentenversicherungsnummer',
    ],
    field('national_id'),
  ),
  ...names(
    [
      'tax id',
      'tax id number',
      'tax number',
      'tax no',
      'tin',
      'taxpayer id',
      'tax identification number',
      'tax reference',
      'utr',
      'steuer-id',
      'steuerid',
      'steuer-idnr',
      'steuer-id-nr',
      'steueridentifikationsnummer',
      'steuerliche identifikationsnummer',
      'identifikationsnummer',
      'steuernummer',
      'steuer-nr',
      'idnr',
    ],
    field('tax_id'),
  ),
  ...names(
    [
      'vat id',
      'vat no',
      'vat number',
      'vat reg no',
      'vat registration number',
      'ust-idnr',
      'ust-id',
      'ust-id-nr',
      'umsatzsteuer-id',
      'umsatzsteuer-identifikationsnummer',
    ],
    field('tax_id', { field_name: 'vat_id', confidence: CONFIDENCE.vatId }),
  ),
  // Organisation.
  ...names(
    [
      'company',
      'company name',
      'employer',
      'organisation',
      'organization',
      'firma',
      'arbeitgeber',
      'unternehmen',
      'firmenname',
    ],
    field('company'),
  ),
  // Not the person's data.
  ...names(
    [
      'fax',
      'telefax',
      'fax number',
      'order',
      'order no',
      'order number',
      'order id',
      'invoice',
      'invoice no',
      'invoice number',
      'invoice date',
      'date',
      'due date',
      'datum',
      'rechnungsnummer',
      'rechnungsdatum',
      'rechnung',
      'bestellnummer',
      'auftragsnummer',
      'kundennummer',
      'customer no',
      'customer number',
      'customer id',
      'reference',
      'ref',
      'referenz',
      'tracking',
      'tracking number',
      'sendungsnummer',
      'bic',
      'swift',
      'bic/swift',
      'blz',
      'bankleitzahl',
      'sort code',
      'routing number',
      'valid until',
      'expiry',
      'expiry date',
      'issue date',
      'date of issue',
      'ausstellungsdatum',
      'gültig bis',
      'ablaufdatum',
      'start date',
      'end date',
      'period',
      'zeitraum',
      'amount',
      'betrag',
      'total',
      'summe',
      'member since',
      'kunde seit',
      'vertragsnummer',
      'contract number',
      'policy number',
      'nationality',
      'staatsangehörigkeit',
      'place of birth',
      'geburtsort',
      'gender',
      'geschlecht',
      'title',
      'anrede',
    ],
    IGNORE,
  ),
]);

function names(list: readonly string[], target: LabelTarget): [string, LabelTarget][] {
  return list.map((name) => [name, target]);
}

/** Longest label text considered (characters before the ":"). */
export const MAX_LABEL_LENGTH = 48;

export function normaliseLabel(label: string): string {
  return (
    label
      .toLowerCase()
      // Bullets and symbols before a label: "• Name", "👋 Geburtsdatum", "- IBAN".
      .replace(/^[^\p{L}]+/u, '')
      .replace(/\([^()]{0,40}\)/g, ' ')
      .replace(/[.*#]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The last word of every label, normalised: a colon after any other word ends no label. */
const LAST_WORDS = new Set([...LABELS.keys()].map((label) => label.split(' ').pop() ?? ''));
/** Most words in a label ("family name, given name": 4). */
export const MAX_LABEL_WORDS = Math.max(...[...LABELS.keys()].map((label) => label.split(' ').length));

/** Whether `word` (the word just before a colon) can end a label: a cheap test before lookupLabel. */
export function endsLikeLabel(word: string): boolean {
  return word.length <= MAX_LABEL_LENGTH && LAST_WORDS.has(normaliseLabel(word));
}

export function lookupLabel(label: string): LabelTarget | undefined {
  if (label.length > MAX_LABEL_LENGTH) return undefined;
  return LABELS.get(normaliseLabel(label));
}

/**
 * Labels that work without a colon at the start of a cell, followed by a space: short, and
 * unlikely to start a sentence with a value after them ("IBAN DE89 …", "Tel. +49 …", "DOB 1984-03-15").
 * ("born …" / "geb. …" inside a sentence is its own rule: extract-candidates.ts.) Matched case-insensitively; the label text is group 1.
 */
export const BARE_LABEL = /^(iban|dob|d\.o\.b\.|tel\.?|telefon|phone|mobile?|mobil|e-?mail)\s+/i;
