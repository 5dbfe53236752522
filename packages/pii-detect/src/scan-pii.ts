import { findCards } from './detectors/card';
import { findEmails } from './detectors/email';
import { scanIbans } from './detectors/iban';
import { findPhones } from './detectors/phone';
import type { Span } from './detectors/text-scan';

/** Kinds the pattern detectors find. */
export type DetectedKind = 'email' | 'iban' | 'card' | 'phone';

export interface Detection {
  kind: DetectedKind;
  /** UTF-16 indexes of the text. */
  span: Span;
}

/**
 * Every e-mail address, IBAN, payment card and phone number in `text`, without overlaps. Spans are
 * claimed in the order email > iban > card > phone, so a card number inside which a phone-shaped
 * run hides is a card, never a phone. Text shaped like an IBAN that fails its check is claimed too
 * (after valid IBANs) and dropped: no card or phone is cut out of an account number.
 *
 * Returned in claim order (by kind, then position), not sorted by position. Linear in the text.
 */
export function scanPii(text: string): Detection[] {
  const claimed = new Uint8Array(text.length);
  const found: Detection[] = [];
  const claim = (spans: readonly Span[], kind: DetectedKind | null) => {
    for (const span of spans) {
      if (claimed.subarray(span.start, span.end).includes(1)) continue;
      claimed.fill(1, span.start, span.end);
      if (kind !== null) found.push({ kind, span });
    }
  };
  claim(findEmails(text), 'email');
  const ibans = scanIbans(text);
  claim(ibans.valid, 'iban');
  claim(ibans.invalid, null);
  claim(findCards(text), 'card');
  claim(findPhones(text), 'phone');
  return found;
}
