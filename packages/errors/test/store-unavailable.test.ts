import {
  ConflictError,
  ServiceUnavailableError,
  storeUnavailableError,
  toErrorResponse,
  unavailableStore,
} from '../src';

// Shapes as the libraries raise them (seen against a real PostgreSQL and Redis; the integration
// suite services/orchestrator/test/database-connection-loss.int.test.ts checks Prisma's live ones).
function withProps(message: string, props: Record<string, unknown>): Error {
  return Object.assign(new Error(message), props);
}

const prismaRefused = withProps('Can\u0027t reach database server at 127.0.0.1:5432', {
  name: 'PrismaClientKnownRequestError',
  code: 'P1001',
  meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } } },
});
const prismaRaw57P01 = withProps('Raw query failed. Code: `57P01`.', {
  name: 'PrismaClientKnownRequestError',
  code: 'P2010',
  meta: {
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { kind: 'postgres', originalCode: '57P01', code: '57P01', severity: 'FATAL' },
    },
  },
});
const pgDatabaseError = withProps('the database system is starting up', {
  code: '57P03',
  severity: 'FATAL',
});
const pgConnectionException = withProps('connection failure', { code: '08006', severity: 'FATAL' });

describe('unavailableStore', () => {
  it.each([
    ['Prisma P1001 (refused)', prismaRefused],
    ['Prisma P2010 wrapping 57P01', prismaRaw57P01],
    ['a pg DatabaseError 57P03', pgDatabaseError],
    ['a pg DatabaseError of class 08', pgConnectionException],
    [
      'a driver-adapter error',
      withProps('x', { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } }),
    ],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly')],
    ['pg: broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'Prisma: transaction not started in time',
      withProps('Transaction API error: Unable to start a transaction in the given time.', { code: 'P2028' }),
    ],
    ['wrapped in a cause', new Error('startRun failed', { cause: pgDatabaseError })],
  ])('PostgreSQL: %s', (_what, err) => {
    expect(unavailableStore(err)).toBe('PostgreSQL');
  });

  it.each([
    [
      'ioredis: offline queue off',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    ],
    [
      'ioredis: retries used up',
      withProps('Reached the max retries per request limit', { name: 'MaxRetriesPerRequestError' }),
    ],
    ['ioredis: closed', new Error('Connection is closed.')],
    ['Redis restarting', withProps('LOADING Redis is loading the dataset in memory', { name: 'ReplyError' })],
  ])('Redis: %s', (_what, err) => {
    expect(unavailableStore(err)).toBe('Redis');
  });

  it.each([
    ['a unique violation', withProps('Unique constraint failed', { code: 'P2002' })],
    ['another transaction API error', withProps('Transaction already closed', { code: 'P2028' })],
    ['a syntax error', withProps('syntax error at or near "x"', { code: '42601', severity: 'ERROR' })],
    // Object storage and outside providers raise these too: the store would be named wrongly.
    ['a bare socket error', withProps('connect ECONNREFUSED 127.0.0.1:9000', { code: 'ECONNREFUSED' })],
    [
      'an AppError (a decision already made)',
      new ConflictError('run already finished', { cause: pgDatabaseError }),
    ],
    ['a plain error', new Error('boom')],
    ['not an error', 'Connection terminated unexpectedly'],
  ])('none: %s', (_what, err) => {
    expect(unavailableStore(err)).toBeUndefined();
  });

  it('survives a cause cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    expect(unavailableStore(a)).toBeUndefined();
  });
});

describe('storeUnavailableError and toErrorResponse', () => {
  it('name the store and the service, nothing of the driver', () => {
    const err = storeUnavailableError(prismaRefused, 'wallet');
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err?.message).toBe('the wallet service cannot reach PostgreSQL; try again in a few seconds');
    expect(err?.expose).toBe(true);
  });

  it('answer 503 instead of 500 for an outage, and leave everything else alone', () => {
    expect(toErrorResponse(prismaRaw57P01)).toEqual({
      status: 503,
      body: { ok: false, error: 'PostgreSQL is unavailable; try again in a few seconds' },
    });
    expect(toErrorResponse(new Error('boom'))).toEqual({
      status: 500,
      body: { ok: false, error: 'internal error' },
    });
    expect(toErrorResponse(new ServiceUnavailableError('wallet service is unavailable')).body.error).toBe(
      'wallet service is unavailable',
    );
  });
});
