/**
 * The category vocabulary of the catalog. The spec leaves categories open (§4.1 only says the list
 * endpoint takes "a category filter", matched exactly), so we keep a small closed set that a client
 * or an agent can enumerate and filter by without guessing synonyms:
 *
 * - `security`  certificates, exposure and reconnaissance of one's own assets (e.g. `crt`)
 * - `network`   DNS, WHOIS, IP and connectivity lookups
 * - `documents` PDF, office files, OCR, text extraction, form filling
 * - `data`      tabular and structured data: CSV, JSON, conversion, validation
 * - `media`     images, audio, video: thumbnails, transcoding, transcription
 * - `web`       web pages: fetching, screenshots, metadata, link checks
 * - `privacy`   PII detection and redaction, anonymisation
 *
 * Adding a category is a catalog change (clients may cache the list): add it here with one line
 * saying what belongs in it, then use it in a declaration.
 */
export const CATEGORIES = ['security', 'network', 'documents', 'data', 'media', 'web', 'privacy'] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
