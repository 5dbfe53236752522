import { crtJobFor, runJobId, stalledRunError } from './dispatch';

const RUN_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';

describe('runJobId', () => {
  it('is run-<id>, without the `:` BullMQ rejects', () => {
    expect(runJobId(RUN_ID)).toBe(`run-${RUN_ID}`);
    expect(runJobId(RUN_ID)).not.toContain(':');
  });
});

describe('crtJobFor', () => {
  it('builds the capability.crt payload from the stored input', () => {
    const input = { apex: 'example.com', include_first_seen: true, limit: 7 };
    expect(crtJobFor({ id: RUN_ID, slug: 'crt', input })).toEqual({
      run_id: RUN_ID,
      apex: 'example.com',
      include_first_seen: true,
      limit: 7,
    });
  });

  it('refuses a stored input that no longer parses, and runs of other capabilities', () => {
    expect(() => crtJobFor({ id: RUN_ID, slug: 'crt', input: { apex: 'www.example.com' } })).toThrow(
      TypeError,
    );
    expect(() => crtJobFor({ id: RUN_ID, slug: 'crt', input: null })).toThrow(TypeError);
    expect(() => crtJobFor({ id: RUN_ID, slug: 'dns', input: { apex: 'example.com' } })).toThrow(TypeError);
  });
});

describe('stalledRunError', () => {
  it('names the threshold in seconds', () => {
    expect(stalledRunError(900_000)).toEqual({
      code: 'internal',
      message: 'run stalled: no report from a worker within 900 s',
    });
  });
});
