import {
  BalanceResponse,
  HealthResponse,
  ReadinessResponse,
  ServiceReadiness,
  WhoAmIResponse,
} from '../src/index';

const CLIENT_ID = '6ba7b810-9dad-41d1-80b4-00c04fd430c8';

test('WhoAmIResponse', () => {
  const body = {
    ok: true,
    client_id: CLIENT_ID,
    client_name: 'acme',
    key_id: 'abcdefghijkl',
    scopes: ['billing:read'],
  };
  expect(WhoAmIResponse.safeParse(body).success).toBe(true);
  expect(WhoAmIResponse.safeParse({ ...body, scopes: ['root'] }).success).toBe(false);
  expect(WhoAmIResponse.safeParse({ ...body, client_id: 'acme' }).success).toBe(false);
});

describe('BalanceResponse', () => {
  const body = {
    ok: true,
    client_id: CLIENT_ID,
    currency: 'USD',
    balance_usd: '10.00',
    held_usd: '0.50',
    spent_usd: '2.25',
    spend_cap_usd: '5.00',
    remaining_usd: '2.75',
    period: { start: '2026-08-01T00:00:00.000Z', end: '2026-09-01T00:00:00.000Z' },
  };

  test('parses; the cap may be null, remaining may not', () => {
    expect(BalanceResponse.safeParse(body).success).toBe(true);
    expect(BalanceResponse.safeParse({ ...body, spend_cap_usd: null }).success).toBe(true);
    expect(BalanceResponse.safeParse({ ...body, remaining_usd: null }).success).toBe(false);
  });

  test('amounts are UsdAmount strings', () => {
    expect(BalanceResponse.safeParse({ ...body, balance_usd: 10 }).success).toBe(false);
    expect(BalanceResponse.safeParse({ ...body, held_usd: '-1.00' }).success).toBe(false);
    expect(BalanceResponse.safeParse({ ...body, currency: 'EUR' }).success).toBe(false);
    expect(BalanceResponse.safeParse({ ...body, period: { start: 'August' } }).success).toBe(false);
  });
});

test('HealthResponse and ReadinessResponse', () => {
  expect(HealthResponse.safeParse({ ok: true, service: 'registry', uptime_s: 1.5 }).success).toBe(true);
  expect(HealthResponse.safeParse({ ok: false, service: 'registry', uptime_s: 1 }).success).toBe(false);
  expect(HealthResponse.safeParse({ ok: true, service: 'registry', uptime_s: -1 }).success).toBe(false);
  const ready = {
    ok: false,
    service: 'registry',
    checks: { postgres: { ok: true }, redis: { ok: false, error: 'timeout' } },
  };
  expect(ReadinessResponse.safeParse(ready).success).toBe(true);
  expect(ReadinessResponse.safeParse({ ...ready, checks: { redis: { error: 'x' } } }).success).toBe(false);
  // The gateway's report of the services behind it (issue 13): ok per service, with a count.
  const gateway = {
    ok: true,
    service: 'gateway',
    checks: { redis: { ok: true } },
    services: { wallet: { ok: true, instances: 2 }, uploads: { ok: false, instances: 0, error: 'none' } },
  };
  expect(ReadinessResponse.parse(gateway)).toEqual(gateway);
  expect(ReadinessResponse.safeParse({ ...gateway, services: { wallet: { ok: true } } }).success).toBe(false);
  expect(
    ServiceReadiness.safeParse({ ok: true, instances: -1 }).success ||
      ServiceReadiness.safeParse({ ok: true, instances: 1.5 }).success,
  ).toBe(false);
});
