import {
  CONTRACT_DEPRECATIONS,
  ContractDeprecation,
  ContractDeprecations,
  deprecationHeaderValue,
  deprecationNotice,
  sunsetHeaderValue,
} from '../src/index';

const entry = { since: '2026-09-01', sunset: '2027-03-01', link: 'https://docs.example.com/d' };

describe('contract deprecations', () => {
  test('nothing is deprecated today (spec §9.5), and the list is valid', () => {
    expect(CONTRACT_DEPRECATIONS).toEqual({});
    expect(Object.isFrozen(CONTRACT_DEPRECATIONS)).toBe(true);
    expect(ContractDeprecations.safeParse(CONTRACT_DEPRECATIONS).success).toBe(true);
  });

  test('sunset may equal since but not precede it', () => {
    expect(ContractDeprecation.safeParse({ ...entry, sunset: '2026-09-01' }).success).toBe(true);
    const early = ContractDeprecation.safeParse({ ...entry, sunset: '2026-08-31' });
    expect(early.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['sunset', 'must not be earlier than since'],
    ]);
  });

  test('strict: dates are real days, no other fields, ids have a known kind', () => {
    expect(ContractDeprecation.safeParse({ ...entry, since: '2026-9-1' }).success).toBe(false);
    expect(ContractDeprecation.safeParse({ ...entry, since: '2026-09-01T00:00:00Z' }).success).toBe(false);
    expect(ContractDeprecation.safeParse({ ...entry, note: 'x' }).success).toBe(false);
    expect(ContractDeprecation.safeParse({ ...entry, replacement: 'svc_tool_run' }).success).toBe(false);
    expect(ContractDeprecation.safeParse({ ...entry, replacement: 'mcp:svc_tool_run' }).success).toBe(true);
    expect(ContractDeprecations.safeParse({ 'mcp:svc_tool_status': entry }).success).toBe(true);
    expect(ContractDeprecations.safeParse({ svc_tool_status: entry }).success).toBe(false);
  });

  test('header values: RFC 9745 structured-field Date, RFC 8594 IMF-fixdate', () => {
    expect(deprecationHeaderValue(entry)).toBe('@1788220800');
    expect(sunsetHeaderValue(entry)).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    expect(sunsetHeaderValue({ ...entry, sunset: '2028-02-29' })).toBe('Tue, 29 Feb 2028 00:00:00 GMT');
  });

  test('the notice an agent reads', () => {
    expect(deprecationNotice(entry)).toBe(
      'Deprecated since 2026-09-01; sunset 2027-03-01. See https://docs.example.com/d',
    );
    expect(deprecationNotice({ ...entry, replacement: 'rest:GET /api/x' })).toBe(
      'Deprecated since 2026-09-01; sunset 2027-03-01; use GET /api/x instead. See https://docs.example.com/d',
    );
  });
});
