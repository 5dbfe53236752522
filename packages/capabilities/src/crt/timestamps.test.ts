import { parseProviderTimestamp } from './timestamps';

describe('parseProviderTimestamp', () => {
  it.each([
    // crt.sh entry_timestamp: UTC without a zone, fractions of varying length
    ['2024-03-05T12:34:56.789', '2024-03-05T12:34:56.789Z'],
    ['2024-11-02T08:15:44.12', '2024-11-02T08:15:44.120Z'],
    ['2024-11-02T08:15:44.123456', '2024-11-02T08:15:44.123Z'],
    // crt.sh not_before: no fractions
    ['2023-01-15T00:00:00', '2023-01-15T00:00:00.000Z'],
    // Cert Spotter: RFC 3339 with Z or an offset
    ['2024-03-05T11:35:00Z', '2024-03-05T11:35:00.000Z'],
    ['2024-03-05T13:35:00+02:00', '2024-03-05T11:35:00.000Z'],
    ['2024-03-05 11:35:00', '2024-03-05T11:35:00.000Z'],
  ])('reads %j as %s', (text, iso) => {
    const ms = parseProviderTimestamp(text);
    expect(ms === undefined ? undefined : new Date(ms).toISOString()).toBe(iso);
  });

  it.each([null, undefined, '', 'yesterday', '2024-03-05', '2024-13-45T99:99:99', '1709642096'])(
    'gives undefined for %j',
    (text) => {
      expect(parseProviderTimestamp(text)).toBeUndefined();
    },
  );
});
