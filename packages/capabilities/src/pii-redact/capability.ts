import { defineCapability } from '../define';
import { characterCount, PII_MAX_CHARACTERS, PiiRedactInput, PiiRedactResult } from './schema';

/**
 * `pii-redact`: finds e-mail addresses, phone numbers, IBANs and payment card numbers in a text and
 * replaces them (the detection rules are in ./redact-pii.ts).
 *
 * Words chosen for the full-text index (name/slug weigh most, then category and tags, then the
 * description): "redact", "pii", "mask", "anonymize", "gdpr", "email", "phone", "iban",
 * "credit card". The description states what is found, how cards and IBANs are checked (so a
 * client knows why a random 16-digit number is left alone) and that original values never come
 * back in the result.
 */
export const piiRedact = defineCapability({
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
  category: 'privacy',
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
    unit: '1000_characters',
    unit_price_usd: '0.002',
    minimum_usd: '0.002',
    description: 'USD 0.002 per started 1,000 characters (minimum USD 0.002 per run).',
    // A started block of 1,000 characters (Unicode code points, as limited), at least 1.
    units: (input) => Math.max(1, Math.ceil(characterCount(input.text) / 1000)),
  },
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
  workload: 'cpu',
  input: PiiRedactInput,
  result: PiiRedactResult,
  handler: () => import('./handler'),
});
