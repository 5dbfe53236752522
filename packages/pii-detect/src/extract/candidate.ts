import type { VaultFieldType } from '@svc/contracts';

/** A candidate's type is a vault field type (contracts `VaultFieldType`: one list for both). */
export type CandidateType = VaultFieldType;

/** A proposed vault field, found in one page of a document. */
export interface Candidate {
  /** Suggested vault field name (`^[a-z][a-z0-9_]{0,63}$`): the type's name, or `address_line_2`, `vat_id`. */
  field_name: string;
  type: CandidateType;
  /** Normalised as the vault stores it where that is obvious (see extract-candidates.ts). */
  value: string;
  /** 0..1, from the CONFIDENCE table: how sure the rule that found it is. */
  confidence: number;
  /** 1-based page number. */
  page: number;
  /** Unicode code points within that page's text, half-open [start, end). */
  span: { start: number; end: number };
}

/**
 * Confidence per rule. Labelled finds ("IBAN: …", "Geburtsdatum: …") outrank unlabelled ones; a
 * checksum (IBAN mod-97, card Luhn + issuer range) is strong evidence even without a label; the
 * loosest rules (a phone-shaped digit run, a name guessed from a document's layout) score lowest.
 */
export const CONFIDENCE = {
  /** A value after a label naming its field, parsed by that field's rule (dates unambiguous). */
  labelled: 0.9,
  /** Labelled IBAN / card / e-mail: the label and the checksum or shape agree. */
  labelledIban: 0.99,
  labelledCard: 0.95,
  labelledEmail: 0.97,
  /** A labelled phone the detector does not take ("030/1234567", "0301234567"): the vault checks it. */
  labelledLoosePhone: 0.8,
  /** A labelled date of birth written d/m/y or m/d/y with both numbers ≤ 12 (read day first). */
  labelledAmbiguousDate: 0.7,
  /** "born on 15 March 1984", "geb. 15.03.1984" inside a sentence. */
  bornPhrase: 0.85,
  bornPhraseAmbiguousDate: 0.6,
  /** Name parts split from a labelled full name ("Name: Jane Doe" → given Jane, family Doe). */
  nameSplit: 0.75,
  /**
   * "Account holder" / "Kontoinhaber" / "Cardholder": usually the person, sometimes a company or a
   * joint account.
   */
  accountHolder: 0.8,
  accountHolderSplit: 0.65,
  /** "VAT ID" / "USt-IdNr.": a business's tax number, offered as `vat_id`. */
  vatId: 0.8,
  /** Address parts under an "Address:" label. */
  labelledAddress: 0.9,
  /** Address parts found unlabelled: a street line (with a street word) next to a postcode + city. */
  address: 0.75,
  /** Unlabelled patterns. */
  iban: 0.95,
  card: 0.85,
  email: 0.9,
  phone: 0.6,
  /** A name on the line just above an unlabelled address block (a letter's recipient). */
  recipientName: 0.5,
  /** A CV-style header: a name-like first line followed by contact details. */
  headerName: 0.55,
  /** Parts split from a recipient or header name. */
  guessedNameSplit: 0.45,
} as const;
