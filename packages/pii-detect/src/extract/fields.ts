import { findCards } from '../detectors/card';
import { findEmails } from '../detectors/email';
import { scanIbans } from '../detectors/iban';
import { findPhones } from '../detectors/phone';
import type { Span } from '../detectors/text-scan';
import { classifySegment } from './address';
import { CONFIDENCE } from './candidate';
import { countryCode } from './countries';
import { type DateOrder, parseDateAt } from './dates';
import type { Found } from './found';
import type { LabelTarget } from './labels';
import type { Line } from './lines';
import { parseName } from './names';

type FieldTarget = Extract<LabelTarget, { kind: 'field' }>;

const NAME_PART = /^[\p{L}\p{M}'’. -]{1,60}$/u;
const PLACE = /^[\p{L}\p{M}'’. ()-]{1,60}$/u;
const POSTAL_CODE = /^[A-Z0-9][A-Z0-9 -]{1,9}$/i;
const PASSPORT = /^[A-Z0-9]{6,12}$/i;
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9 ./-]{3,30}$/;
const MAX_FREE_VALUE = 100;
/** A labelled phone written with "/" or as one digit run: digits, spaces and ( ) / . - only. */
const LOOSE_PHONE = /^\+?[0-9][0-9 ()/.-]{5,24}(?![0-9A-Za-z])/;

const digitCount = (text: string) => text.replace(/\D/g, '').length;

/**
 * Candidates from the value of a labelled field (`value`: the text after the label, with its
 * offset in the page). Each type is parsed by its own rule; a value the rule does not accept gives
 * nothing (an invalid IBAN after "IBAN:" is not proposed). The label's confidence applies.
 */
export function readLabelledField(target: FieldTarget, value: Line, order?: DateOrder): Found[] {
  const text = value.text;
  const at = (start: number, end: number, found: string, confidence: number, type = target.type): Found => ({
    type,
    field_name: type === target.type ? target.field_name : type,
    value: found,
    confidence,
    start: value.start + start,
    end: value.start + end,
  });
  const verbatim = (confidence: number) => [at(0, text.length, text, target.confidence ?? confidence)];
  const first = (spans: Span[]) => spans[0];

  switch (target.type) {
    case 'full_name':
    case 'given_name':
    case 'middle_name':
    case 'family_name': {
      if (target.name === 'part')
        return NAME_PART.test(text) && /\p{L}/u.test(text) ? verbatim(CONFIDENCE.labelled) : [];
      const parts = parseName(text) ?? [];
      // Parts split from a full name are a guess (which word is the family name?): lower.
      const holder = target.confidence !== undefined;
      const whole = holder ? CONFIDENCE.accountHolder : CONFIDENCE.labelled;
      const split = holder ? CONFIDENCE.accountHolderSplit : CONFIDENCE.nameSplit;
      return parts.map((part) =>
        at(part.start, part.end, part.value, part.type === 'full_name' ? whole : split, part.type),
      );
    }
    case 'date_of_birth': {
      const date = parseDateAt(text, order);
      if (date === null) return [];
      return [
        at(0, date.length, date.iso, date.ambiguous ? CONFIDENCE.labelledAmbiguousDate : CONFIDENCE.labelled),
      ];
    }
    case 'email': {
      const span = first(findEmails(text));
      return span
        ? [at(span.start, span.end, text.slice(span.start, span.end), CONFIDENCE.labelledEmail)]
        : [];
    }
    case 'phone': {
      const span = first(findPhones(text));
      if (span) return [at(span.start, span.end, text.slice(span.start, span.end), CONFIDENCE.labelled)];
      // After a phone label, shapes the unlabelled detector refuses ("030/1234567", "0301234567").
      const loose = LOOSE_PHONE.exec(text)?.[0].trim() ?? '';
      const digits = digitCount(loose);
      if (digits < 6 || digits > 15) return [];
      return [at(0, loose.length, loose, CONFIDENCE.labelledLoosePhone)];
    }
    case 'iban': {
      const span = first(scanIbans(text).valid);
      if (!span) return [];
      return [
        at(span.start, span.end, compactUpper(text.slice(span.start, span.end)), CONFIDENCE.labelledIban),
      ];
    }
    case 'payment_card': {
      const span = first(findCards(text));
      if (!span) return [];
      return [
        at(
          span.start,
          span.end,
          text.slice(span.start, span.end).replace(/\D/g, ''),
          CONFIDENCE.labelledCard,
        ),
      ];
    }
    case 'address_line':
      return text.length <= MAX_FREE_VALUE && /\p{L}/u.test(text) ? verbatim(CONFIDENCE.labelled) : [];
    case 'city':
    case 'region':
      return PLACE.test(text) ? verbatim(CONFIDENCE.labelled) : [];
    case 'postal_code':
      return POSTAL_CODE.test(text) && /\d/.test(text) ? verbatim(CONFIDENCE.labelled) : [];
    case 'country': {
      const code = countryCode(text);
      return code === null ? [] : [at(0, text.length, code, CONFIDENCE.labelled)];
    }
    case 'passport_number': {
      const token = /^\S+/.exec(text)?.[0] ?? '';
      return PASSPORT.test(token) && /\d/.test(token)
        ? [at(0, token.length, token.toUpperCase(), CONFIDENCE.labelled)]
        : [];
    }
    case 'national_id':
    case 'tax_id':
      return IDENTIFIER.test(text) && digitCount(text) >= 4 ? verbatim(CONFIDENCE.labelled) : [];
    case 'company':
      return text.length <= MAX_FREE_VALUE && /\p{L}/u.test(text) ? verbatim(CONFIDENCE.labelled) : [];
    case 'free_text':
      return [];
  }
}

/** "PLZ/Ort: 10115 Berlin": the postcode and city of one segment. */
export function readPostalCity(value: Line, page: string): Found[] {
  const classified = classifySegment(value, page);
  if (classified.kind !== 'postal_city') return [];
  return classified.parts.map((part) => ({
    ...part,
    field_name: part.type,
    confidence: CONFIDENCE.labelled,
  }));
}

export function compactUpper(text: string): string {
  return text.replace(/\s/g, '').toUpperCase();
}
