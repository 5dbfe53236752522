import { Prisma } from '@svc/db';
import type { GeneratedApiKey } from './api-key-format';
import { insertWithFreshKey } from './api-key-store';

/** What Prisma throws when an INSERT hits a unique index (a key id or client name taken meanwhile). */
function uniqueViolation(): Error {
  return new Prisma.PrismaClientKnownRequestError('Unique constraint failed', {
    code: 'P2002',
    clientVersion: 'test',
  });
}

describe('insertWithFreshKey: the one retry of both key-creating paths', () => {
  it('tries again with another key after a unique violation, and returns what the insert made', async () => {
    const tried: GeneratedApiKey[] = [];
    const created = await insertWithFreshKey(async (key) => {
      tried.push(key);
      if (tried.length < 3) throw uniqueViolation();
      return key.keyId;
    });
    expect(tried).toHaveLength(3);
    expect(new Set(tried.map((key) => key.keyId)).size).toBe(3);
    expect(created).toBe(tried[2]?.keyId);
  });

  it('gives up after three unique violations, with the last one', async () => {
    let attempts = 0;
    await expect(
      insertWithFreshKey(async () => {
        attempts += 1;
        throw uniqueViolation();
      }),
    ).rejects.toMatchObject({ code: 'P2002' });
    expect(attempts).toBe(3);
  });

  it('throws any other error at once', async () => {
    let attempts = 0;
    await expect(
      insertWithFreshKey(async () => {
        attempts += 1;
        throw new RangeError('unknown client');
      }),
    ).rejects.toThrow('unknown client');
    expect(attempts).toBe(1);
  });
});
