import { parseAdminArgs, UsageError } from './args';

const base = ['set-rate-limit', '--client', 'acme', '--budget', 'quotes'];

describe('pnpm admin set-rate-limit (arguments)', () => {
  it('turns a rate and a burst into a quota per whole-second window', () => {
    expect(parseAdminArgs([...base, '--per-second', '5', '--burst', '20'])).toEqual({
      command: 'set-rate-limit',
      clientName: 'acme',
      budget: 'quotes',
      limit: { quota: 20, windowSeconds: 4 },
    });
    expect(parseAdminArgs([...base, '--per-second', '5'])).toMatchObject({
      limit: { quota: 5, windowSeconds: 1 },
    });
    expect(parseAdminArgs([...base, '--per-second', '0.5'])).toMatchObject({
      limit: { quota: 1, windowSeconds: 2 },
    });
    expect(parseAdminArgs([...base, '--per-second', '0.3', '--burst', '3'])).toMatchObject({
      limit: { quota: 3, windowSeconds: 10 },
    });
  });

  it('--reset removes the override', () => {
    expect(parseAdminArgs([...base, '--reset'])).toMatchObject({ budget: 'quotes', limit: null });
  });

  it.each([
    [['--per-second', '3', '--burst', '10'], /whole multiple/],
    [['--per-second', '1', '--burst', '2.5'], /whole number/],
    [['--per-second', '0.001', '--burst', '5'], /at most 3600/],
    [['--per-second', '0'], /must be a number > 0/],
    [['--per-second=-1'], /must be a number > 0/],
    [['--per-second', 'fast'], /must be a number > 0/],
    [['--per-second', '5', '--reset'], /exactly one of/],
    [[], /exactly one of/],
    [['--reset', '--burst', '4'], /--burst goes with --per-second/],
  ])('refuses %j', (extra, message) => {
    expect(() => parseAdminArgs([...base, ...extra])).toThrow(message);
    expect(() => parseAdminArgs([...base, ...extra])).toThrow(UsageError);
  });

  it('refuses an unknown budget and a missing client', () => {
    expect(() =>
      parseAdminArgs(['set-rate-limit', '--client', 'acme', '--budget', 'writes', '--reset']),
    ).toThrow(/--budget must be one of reads, quotes, runs, transfers/);
    expect(() => parseAdminArgs(['set-rate-limit', '--budget', 'reads', '--reset'])).toThrow(
      /--client is required/,
    );
  });
});
