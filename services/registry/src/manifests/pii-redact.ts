import { type CapabilityManifest, NO_FILES, PII_MAX_CHARACTERS, PiiRedactInput } from '@svc/contracts';
import type { Category } from './categories';

const category: Category = 'privacy';

/**
 * `pii-redact`: finds e-mail addresses, phone numbers, IBANs and payment card numbers in a text and
 * replaces them (services/worker/src/domain/pii/redact-pii.ts holds the detection rules).
 *
 * Words chosen for the full-text index (name/slug weigh most, then category and tags, then the
 * description): "redact", "pii", "mask", "anonymize", "gdpr", "email", "phone", "iban",
 * "credit card". The description states what is found, how cards and IBANs are checked (so a
 * client knows why a random 16-digit number is left alone) and that original values never come
 * back in the result.
 */
export const piiRedactManifest: CapabilityManifest = {
  slug: 'pii-redact',
  name: 'PII redaction: redact or mask emails, phone numbers, IBANs and credit cards',
  description:
    'Find and redact personal data (PII) in plain text before you share, log or store it. Detects e-mail addresses, ' +
    'phone numbers (international +E.164 and national formats), IBAN bank account numbers (checked with the ISO 13616 ' +
    'mod-97 checksum and the country length) and payment/credit card numbers (checked with the Luhn algorithm and a ' +
    'known issuer prefix: Visa, Mastercard, American Express, Discover, JCB, Diners, UnionPay, Maestro). Each finding ' +
    'is replaced by a label such as [EMAIL] or [CARD], or masked with asterisks of the same length; you can choose ' +
    'which kinds to redact. Returns the redacted text, the position and kind of every finding (offsets in Unicode ' +
    `characters) and counts per kind. Up to ${PII_MAX_CHARACTERS.toLocaleString('en-US')} characters per run. ` +
    'The original values are never stored in or returned with the result. Helps with GDPR data minimisation and ' +
    'anonymisation of support tickets, chat logs and documents. USD 0.002 per started 1,000 characters.',
  category,
  tags: [
    'pii',
    'redact',
    'redaction',
    'mask',
    'anonymize',
    'anonymise',
    'gdpr',
    'privacy',
    'personal-data',
    'email',
    'phone',
    'iban',
    'credit-card',
    'card',
    'luhn',
    'text',
  ],
  version: '1.0.0',
  pricing: {
    model: 'per_unit',
    currency: 'USD',
    // Unit = a started block of 1,000 Unicode code points (contracts' piiRedactUnits).
    unit: '1000_characters',
    unit_price_usd: '0.002',
    minimum_usd: '0.002',
    description: 'USD 0.002 per started 1,000 characters (minimum USD 0.002 per run).',
  },
  file_requirements: NO_FILES,
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
  input: PiiRedactInput,
};
