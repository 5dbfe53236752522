import { z } from 'zod';

/**
 * The vault's field types (spec §4.16-4.17; issue 16): what a value is, which decides how it is
 * validated, normalised and masked (services/vault domain/field-types; docs/decisions.md "The vault").
 */
export const VAULT_FIELD_TYPES = [
  'given_name',
  'middle_name',
  'family_name',
  'full_name',
  'email',
  'phone',
  'date_of_birth',
  'address_line',
  'postal_code',
  'city',
  'region',
  'country',
  'iban',
  'payment_card',
  'national_id',
  'passport_number',
  'tax_id',
  'company',
  'free_text',
] as const;
export const VaultFieldType = z.enum(VAULT_FIELD_TYPES);
export type VaultFieldType = z.infer<typeof VaultFieldType>;

/** Per type: a label and one sentence for docs and OpenAPI (services/vault domain/field-types validates). */
export const VAULT_FIELD_TYPE_DOCS: Readonly<Record<VaultFieldType, { label: string; description: string }>> =
  {
    given_name: {
      label: 'Given name',
      description:
        'A given (first) name as written: trimmed, one line, no control characters, spaces collapsed, at least one letter, at most 100 characters.',
    },
    middle_name: {
      label: 'Middle name',
      description:
        'A middle name as written: trimmed, one line, no control characters, spaces collapsed, at least one letter, at most 100 characters.',
    },
    family_name: {
      label: 'Family name',
      description:
        'A family (last) name as written: trimmed, one line, no control characters, spaces collapsed, at least one letter, at most 100 characters.',
    },
    full_name: {
      label: 'Full name',
      description:
        'A whole name as written: trimmed, one line, no control characters, spaces collapsed, at least one letter, at most 200 characters.',
    },
    email: {
      label: 'E-mail address',
      description:
        'An e-mail address name@domain.tld (at most 254 characters, 64 before the @); the domain is stored in lower case and may be internationalised.',
    },
    phone: {
      label: 'Phone number',
      description:
        'An international phone number (+ or 00, the country calling code, then digits; spaces, hyphens, dots and parentheses allowed), checked for its length and stored in E.164.',
    },
    date_of_birth: {
      label: 'Date of birth',
      description:
        'A real calendar date written YYYY-MM-DD (ISO 8601), not before 1900-01-01 and not in the future.',
    },
    address_line: {
      label: 'Address line',
      description:
        'One line of a postal address (street and number, apartment) as written: trimmed, one line, no control characters, at most 200 characters.',
    },
    postal_code: {
      label: 'Postal code',
      description:
        "A postal code of 2-12 letters, digits, spaces or hyphens, stored upper-case (the country's own format is not checked).",
    },
    city: {
      label: 'City',
      description:
        'A city or town as written: trimmed, one line, no control characters, at most 100 characters.',
    },
    region: {
      label: 'Region',
      description:
        'A state, province or region as written: trimmed, one line, no control characters, at most 100 characters.',
    },
    country: {
      label: 'Country',
      description:
        'A country as an ISO 3166-1 alpha-2 code, alpha-3 code or English name (any case), stored as the alpha-2 code.',
    },
    iban: {
      label: 'IBAN',
      description:
        "An IBAN (ISO 13616) with its country's length and format and a valid mod-97 check, spaces or hyphens allowed, stored compact in upper case.",
    },
    payment_card: {
      label: 'Payment card number',
      description:
        'A payment card number of 12-19 digits with a valid Luhn check digit, spaces or hyphens allowed, stored as digits only.',
    },
    national_id: {
      label: 'National id number',
      description:
        "A national identity number as printed: letters A-Z, digits and the separators space, '.', '/' and '-' (at least 4 letters or digits, one a digit), stored upper-case; at most 40 characters.",
    },
    passport_number: {
      label: 'Passport number',
      description:
        'A passport number of 5-20 letters A-Z and digits (at least one digit), stored upper-case without spaces.',
    },
    tax_id: {
      label: 'Tax id',
      description:
        "A tax identification or VAT number as printed: letters A-Z, digits and the separators space, '.', '/' and '-' (at least 4 letters or digits, one a digit), stored upper-case; at most 40 characters.",
    },
    company: {
      label: 'Company',
      description:
        'A company or organisation name as written: trimmed, one line, no control characters, at most 200 characters.',
    },
    free_text: {
      label: 'Free text',
      description:
        'Any text, line breaks and tabs allowed (no other control characters), trimmed, at most 1000 characters.',
    },
  };

/** A field's name: a stable key such as `iban` or `home_address_city`. */
export const VAULT_FIELD_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const VaultFieldName = z
  .string()
  .regex(
    VAULT_FIELD_NAME_PATTERN,
    'must be 1-64 characters: a lowercase letter, then lowercase letters, digits or _',
  );

/** Longest value of any type (characters, after trimming); each type may allow less. */
export const VAULT_VALUE_MAX_CHARACTERS = 1_000;
/** Fields one client may keep. */
export const VAULT_MAX_FIELDS_PER_CLIENT = 500;

/**
 * The common profile fields `GET /api/vault/profile` reports as present or missing, with the type each
 * is expected to have.
 */
export const VAULT_COMMON_PROFILE_FIELDS: readonly { name: string; type: VaultFieldType }[] = [
  { name: 'given_name', type: 'given_name' },
  { name: 'family_name', type: 'family_name' },
  { name: 'email', type: 'email' },
  { name: 'phone', type: 'phone' },
  { name: 'date_of_birth', type: 'date_of_birth' },
  { name: 'address_line', type: 'address_line' },
  { name: 'postal_code', type: 'postal_code' },
  { name: 'city', type: 'city' },
  { name: 'country', type: 'country' },
  { name: 'iban', type: 'iban' },
];
