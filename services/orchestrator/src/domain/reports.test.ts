import { resultProblem } from './reports';

const RESULT = {
  status: 'completed',
  summary:
    'Found 1 distinct hostnames for example.com in certificate-transparency logs (crt.sh); returning 1 (limit 100).',
  apex: 'example.com',
  count: 1,
  limit: 100,
  include_first_seen: false,
  observations: [{ hostname: 'www.example.com' }],
  provider: 'crt.sh',
  live_hosts_verified: false,
  disclosure: 'Certificate-transparency observations list hostnames …',
};

describe('resultProblem', () => {
  it('accepts a CrtResult for a crt run', () => {
    expect(resultProblem('crt', RESULT)).toBeUndefined();
  });

  it('names what is wrong with a result that breaks CrtResult', () => {
    expect(resultProblem('crt', { ...RESULT, live_hosts_verified: true })).toMatch(/live_hosts_verified/);
    expect(resultProblem('crt', { ...RESULT, extra: 1 })).toMatch(/extra/);
  });

  it('has no opinion on capabilities without a result schema', () => {
    expect(resultProblem('something-else', { anything: true })).toBeUndefined();
  });
});
