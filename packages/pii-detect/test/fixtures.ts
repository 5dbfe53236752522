/**
 * Realistic documents for the extractor tests (all names, numbers and addresses are fictitious;
 * IBANs and card numbers are the public test values).
 */

/** A German bank's account-opening letter: letterhead, recipient block, labelled account data. */
export const GERMAN_BANK_LETTER = `Musterbank AG · Bankstraße 1 · 60311 Frankfurt am Main

Herrn
Max Mustermann
Musterstraße 12
10115 Berlin

Frankfurt, 02.11.2026

Ihr Girokonto – Bestätigung der Kontoeröffnung

Sehr geehrter Herr Mustermann,

wir freuen uns, Ihnen die Eröffnung Ihres Girokontos zu bestätigen.

Kontoinhaber: Max Mustermann
IBAN: DE89 3704 0044 0532 0130 00
BIC: COBADEFFXXX
Geburtsdatum: 15.03.1984
Steuer-ID: 12 345 678 901
Telefon: 030 1234567
E-Mail: max.mustermann@example.de

Mit freundlichen Grüßen
Ihre Musterbank`;

/** An English onboarding form exported as text: two columns on some lines, an indented address. */
export const ONBOARDING_FORM = `ACME BANK – Customer Onboarding Form

Personal details
Title: Ms            Gender: Female
First name: Jane     Middle name: Alexandra
Last name: Doe
Date of birth (DD/MM/YYYY)*: 04/07/1990
Nationality: British
Email address: jane.doe@example.com
Mobile: +44 7700 900123
Home address: 221B Baker Street
              London NW1 6XE
              United Kingdom

Identity
Passport No.: 533401372
National Insurance number: QQ 12 34 56 C

Employment
Employer: Acme Widgets Ltd
Tax ID: 1234567890`;

/** A CV's header (name, contact line) and its first entries, one with an employer's address. */
export const CV_HEADER = `Jane A. Doe
Senior Software Engineer
jane.doe@example.com · +1 (650) 555-0199 · 1600 Amphitheatre Pkwy, Mountain View, CA 94043

EXPERIENCE
2019-2026  Staff Engineer, Example Corp, 1 Market Street, San Francisco, CA 94105
2014-2019  Engineer, Sample Inc.`;

/** An invoice: seller and buyer, invoice numbers and dates, a card and an IBAN. */
export const INVOICE = `INVOICE
Invoice no.: 2026-00417          Invoice date: 21.11.2026
Order number: 030 1234 5678      Due date: 05/12/2026

Bill to:
Anna Schmidt
Hauptstr. 5a, 80331 München
Deutschland

Payment by card: 4111 1111 1111 1111 (Visa)
Or bank transfer to IBAN DE02 1203 0000 0000 2020 51
Fax: +49 89 1234 5678
Questions? billing@shop.example.com`;

/** A document of three pages (what the PDF reader gives: one string per page). */
export const MULTI_PAGE = [
  'Application for membership\n\nName: Jane Doe\nMember since: 2020',
  'Contact\nE-mail: jane@example.com\nDOB 1984-03-15\nWrite to jane@example.com for updates.',
  'She was born on 15 March 1984 in Leeds.\nKontoinhaberin: Doe, Jane\nKreditkarte: 5555-5555-5555-4444',
];

/** Near misses: an invalid IBAN, a card number failing Luhn, order numbers, dates that are not births. */
export const NOISY = `Ticket #48213 – re: account
Customer no.: 4111 1111 1111 1112
IBAN: DE89 3704 0044 0532 0130 01
Order 4111 1111 1111 1112 shipped
Tracking: 1Z999AA10123456784
Meeting on 2026-11-21 at 10:30, budget 1 000 000 EUR
Reference: 12.03.1999
Valid until: 31.12.2027
Version 2.3.1, build 2019-2026
The 2024 Annual Report is at Example Street 5.
Call me at 555-123-4567 😀 or write 😀 ann@example.org`;
