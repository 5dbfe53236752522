import { VAULT_FIELD_TYPE_DOCS, VAULT_FIELD_TYPES, type VaultFieldType } from '@svc/contracts';
import { COUNTRY_MAX, maskCountry, normalizeCountry } from './country';
import { DATE_MAX, maskDateOfBirth, normalizeDateOfBirth } from './date-of-birth';
import { EMAIL_MAX, maskEmail, normalizeEmail } from './email';
import { IBAN_MAX, maskIban, normalizeIban } from './iban';
import {
  IDENTIFIER_MAX,
  maskIdentifier,
  maskPostalCode,
  normalizeIdentifier,
  normalizePassport,
  normalizePostalCode,
  PASSPORT_MAX,
  POSTAL_CODE_MAX,
} from './identifiers';
import { firstCharMask } from './mask-helpers';
import { CARD_MAX, maskPaymentCard, normalizePaymentCard } from './payment-card';
import { maskPhone, normalizePhone, PHONE_MAX } from './phone';
import {
  ADDRESS_LINE_MAX,
  COMPANY_MAX,
  FREE_TEXT_MAX,
  FULL_NAME_MAX,
  maskFreeText,
  maskFullName,
  NAME_MAX,
  normalizeFreeText,
  normalizeLine,
  normalizeName,
  PLACE_MAX,
} from './text-types';
import type { FieldTypeSpec } from './types';

// Labels and descriptions live with the wire enum (contracts VAULT_FIELD_TYPE_DOCS: OpenAPI shows them).
type Entry = Omit<FieldTypeSpec, 'type' | 'label' | 'description'>;

/**
 * The field type catalog (docs/decisions.md "The vault", VF1-VF9). Keyed by the contracts'
 * `VaultFieldType`, so a type added there without an entry here fails to compile.
 * Examples are fictitious or published test values (IBAN and card test numbers).
 */
const ENTRIES: Record<VaultFieldType, Entry> = {
  given_name: {
    examples: ['Jane', 'José', 'Şule'],
    maxLength: NAME_MAX,
    normalize: normalizeName(NAME_MAX),
    mask: firstCharMask,
  },
  middle_name: {
    examples: ['Marie', 'Alexander'],
    maxLength: NAME_MAX,
    normalize: normalizeName(NAME_MAX),
    mask: firstCharMask,
  },
  family_name: {
    examples: ['Doe', 'Müller', 'García Márquez'],
    maxLength: NAME_MAX,
    normalize: normalizeName(NAME_MAX),
    mask: firstCharMask,
  },
  full_name: {
    examples: ['Jane Doe', 'Maria de la Cruz', '山田 太郎'],
    maxLength: FULL_NAME_MAX,
    normalize: normalizeName(FULL_NAME_MAX),
    mask: maskFullName,
  },
  email: {
    examples: ['jane.doe@example.com', 'Jane.Doe@Example.COM', 'info@müller.example'],
    maxLength: EMAIL_MAX,
    normalize: normalizeEmail,
    mask: maskEmail,
  },
  phone: {
    examples: ['+49 30 901820', '0044 20 7946 0958', '+1 (415) 555-2671'],
    maxLength: PHONE_MAX,
    normalize: normalizePhone,
    mask: maskPhone,
  },
  date_of_birth: {
    examples: ['1990-04-15', '1985-12-31'],
    maxLength: DATE_MAX,
    normalize: normalizeDateOfBirth,
    mask: maskDateOfBirth,
  },
  address_line: {
    examples: ['Hauptstraße 5', '221B Baker Street', 'Apt. 4, 12 Main St'],
    maxLength: ADDRESS_LINE_MAX,
    normalize: normalizeLine(ADDRESS_LINE_MAX),
    mask: firstCharMask,
  },
  postal_code: {
    examples: ['10115', 'SW1A 1AA', '1011 ab'],
    maxLength: POSTAL_CODE_MAX,
    normalize: normalizePostalCode,
    mask: maskPostalCode,
  },
  city: {
    examples: ['Berlin', 'São Paulo', '東京'],
    maxLength: PLACE_MAX,
    normalize: normalizeLine(PLACE_MAX),
    mask: firstCharMask,
  },
  region: {
    examples: ['Bavaria', 'California', 'Île-de-France'],
    maxLength: PLACE_MAX,
    normalize: normalizeLine(PLACE_MAX),
    mask: firstCharMask,
  },
  country: {
    examples: ['DE', 'deu', 'Germany', 'United Kingdom'],
    maxLength: COUNTRY_MAX,
    normalize: normalizeCountry,
    mask: maskCountry,
  },
  iban: {
    examples: ['DE89 3704 0044 0532 0130 00', 'gb82west12345698765432'],
    maxLength: IBAN_MAX,
    normalize: normalizeIban,
    mask: maskIban,
  },
  payment_card: {
    examples: ['4111 1111 1111 1111', '5555-5555-5555-4444'],
    maxLength: CARD_MAX,
    normalize: normalizePaymentCard,
    mask: maskPaymentCard,
  },
  national_id: {
    examples: ['T22000129', 'QQ 12 34 56 C', '12345678Z'],
    maxLength: IDENTIFIER_MAX,
    normalize: normalizeIdentifier,
    mask: maskIdentifier,
  },
  passport_number: {
    examples: ['C01X00T47', '123456789'],
    maxLength: PASSPORT_MAX,
    normalize: normalizePassport,
    mask: maskIdentifier,
  },
  tax_id: {
    examples: ['12 345 678 901', 'DE123456789', '123-45-6789'],
    maxLength: IDENTIFIER_MAX,
    normalize: normalizeIdentifier,
    mask: maskIdentifier,
  },
  company: {
    examples: ['Example GmbH', 'ACME Corp.'],
    maxLength: COMPANY_MAX,
    normalize: normalizeLine(COMPANY_MAX),
    mask: firstCharMask,
  },
  free_text: {
    examples: ['Allergic to penicillin.', 'Preferred contact: evenings\nafter 18:00'],
    maxLength: FREE_TEXT_MAX,
    normalize: normalizeFreeText,
    mask: maskFreeText,
  },
};

/** Every type, in the contracts' order (docs, OpenAPI, tests). */
export const FIELD_TYPE_SPECS: readonly FieldTypeSpec[] = VAULT_FIELD_TYPES.map((type) => ({
  type,
  ...VAULT_FIELD_TYPE_DOCS[type],
  ...ENTRIES[type],
}));

const BY_TYPE = new Map(FIELD_TYPE_SPECS.map((spec) => [spec.type, spec]));

/** The catalog entry of a type (callers parse the type with the contracts' enum first). */
export function fieldTypeSpec(type: VaultFieldType): FieldTypeSpec {
  const spec = BY_TYPE.get(type);
  if (spec === undefined) throw new Error(`unknown vault field type ${JSON.stringify(type)}`);
  return spec;
}
