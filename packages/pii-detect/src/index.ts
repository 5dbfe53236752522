/**
 * @svc/pii-detect: finds personal data in plain text. Pure, synchronous, no I/O and no
 * dependencies; every scanner is linear in the text (no regular-expression backtracking).
 *
 * - pattern detectors (./detectors): e-mail, IBAN, payment card, phone; used by a redaction
 *   capability and by the extractors;
 * - predicates: `luhnValid`, `ibanValid`, `ibanLength`, `cardNetwork`;
 * - extractors (./extract): `extractCandidates(pages)` proposes vault field candidates.
 */
export { codePointIndex, codePointLength, codePointOffsets } from './code-points';
export { cardNetwork, findCards, luhnValid } from './detectors/card';
export { findEmails } from './detectors/email';
export { type IbanScan, ibanValid, scanIbans } from './detectors/iban';
export { ibanLength } from './detectors/iban-lengths';
export { findPhones } from './detectors/phone';
export type { Span } from './detectors/text-scan';
export { type Candidate, type CandidateType, CONFIDENCE } from './extract/candidate';
export { type DateOrder, parseDateAt } from './extract/dates';
export { extractCandidates } from './extract/extract-candidates';
export { type DetectedKind, type Detection, scanPii } from './scan-pii';
