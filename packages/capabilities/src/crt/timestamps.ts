/**
 * Provider timestamps → epoch ms. crt.sh writes UTC without a zone (`2024-03-05T12:34:56.789`,
 * sometimes without fractions); Cert Spotter writes RFC 3339 with `Z`. Anything else is ignored
 * (the hostname is kept, only its time is unknown).
 */
const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})?$/i;

/** Epoch ms of `text`, read as UTC when it has no zone; undefined when it is not such a date-time. */
export function parseProviderTimestamp(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim();
  if (!DATE_TIME_PATTERN.test(trimmed)) return undefined;
  const withT = trimmed.replace(' ', 'T');
  // Date.parse takes at most millisecond precision in its reliable (ISO) form: cut longer fractions.
  const normalised = withT.replace(/(\.\d{3})\d+/, '$1');
  const hasZone = /(?:Z|[+-]\d{2}:\d{2})$/i.test(normalised);
  const ms = Date.parse(hasZone ? normalised : `${normalised}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}
