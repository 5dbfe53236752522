import { isAsciiAlphanumeric, isAsciiLetter, type Span } from './text-scan';

/** RFC 5321 §4.5.3.1: at most 64 characters before the @ and 255 after it. */
const MAX_LOCAL_LENGTH = 64;
const MAX_DOMAIN_LENGTH = 255;
const MAX_LABEL_LENGTH = 63;

/** Local part characters we accept: letters, digits and . _ % + - (the practical subset of RFC 5322). */
function isLocalChar(code: number): boolean {
  // 46 ".", 95 "_", 37 "%", 43 "+", 45 "-"
  return isAsciiAlphanumeric(code) || code === 46 || code === 95 || code === 37 || code === 43 || code === 45;
}

function isDomainChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 46 || code === 45; // 46 ".", 45 "-"
}

/**
 * E-mail addresses: `local@domain`, local part of letters, digits and `._%+-` (leading dots
 * dropped, at most 64 characters), domain of two or more dot-separated labels (letters, digits and
 * inner hyphens, at most 63 each) whose last label, the TLD, is two or more letters. A trailing dot
 * or hyphen (end of a sentence) is not part of the address.
 *
 * Linear: the scan starts at each `@` and reads at most 64 characters back and 255 forward, so
 * every character is read a bounded number of times whatever the text.
 */
export function findEmails(text: string): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (let at = text.indexOf('@', from); at !== -1; at = text.indexOf('@', from)) {
    from = at + 1;
    const start = localPartStart(text, at);
    const end = start === null ? null : domainEnd(text, at + 1);
    if (start === null || end === null) continue;
    spans.push({ start, end });
    from = end;
  }
  return spans;
}

/** Start of the local part that ends at `at`, or null when there is none or it is too long. */
function localPartStart(text: string, at: number): number | null {
  let start = at;
  while (start > 0 && at - start <= MAX_LOCAL_LENGTH && isLocalChar(text.charCodeAt(start - 1))) start -= 1;
  if (at - start > MAX_LOCAL_LENGTH) return null;
  while (start < at && text.charCodeAt(start) === 46) start += 1; // a local part does not start with "."
  return start < at ? start : null;
}

/** End of the longest valid domain that starts at `from`, or null. */
function domainEnd(text: string, from: number): number | null {
  let end = from;
  while (end < text.length && end - from <= MAX_DOMAIN_LENGTH && isDomainChar(text.charCodeAt(end))) end += 1;
  if (end - from > MAX_DOMAIN_LENGTH) return null;

  // Walk the labels; keep the end of the last label that is a valid TLD after at least one label.
  let best: number | null = null;
  let labels = 0;
  let labelStart = from;
  for (let index = from; index <= end; index += 1) {
    if (index < end && text.charCodeAt(index) !== 46) continue;
    if (!isLabel(text, labelStart, index)) break;
    labels += 1;
    if (labels >= 2 && isTld(text, labelStart, index)) best = index;
    labelStart = index + 1;
  }
  return best;
}

function isLabel(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 1 || length > MAX_LABEL_LENGTH) return false;
  return isAsciiAlphanumeric(text.charCodeAt(start)) && isAsciiAlphanumeric(text.charCodeAt(end - 1));
}

function isTld(text: string, start: number, end: number): boolean {
  if (end - start < 2) return false;
  for (let index = start; index < end; index += 1) if (!isAsciiLetter(text.charCodeAt(index))) return false;
  return true;
}
