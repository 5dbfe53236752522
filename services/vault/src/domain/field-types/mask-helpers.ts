/**
 * Building blocks of the masks. Every mask reveals at most a few characters and never a whole value:
 * a value too short to keep anything hidden is shown as stars only. The star runs have a fixed width
 * where the length itself would tell something (identifiers, phone numbers).
 */
export const STARS = '***';

/** "Jane" → "J***"; a one-character value → "***" (showing it would show all of it). */
export function firstCharMask(value: string): string {
  const chars = Array.from(value);
  return chars.length >= 2 ? `${chars[0]}${STARS}` : STARS;
}

/** "****" + the last `count` characters. */
export function lastCharsMask(value: string, count: number): string {
  const chars = Array.from(value);
  return count > 0 && chars.length > count ? `****${chars.slice(-count).join('')}` : '****';
}

/** Groups of four separated by spaces, as IBANs are printed ("DE89 3704 …"). */
export function groupsOfFour(value: string): string {
  return value.replace(/(.{4})(?=.)/g, '$1 ');
}
