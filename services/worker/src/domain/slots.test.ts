import { BROWSER_SLOTS, IO_SLOTS } from '@svc/capabilities';
import { slotsFor } from './slots';

describe('slotsFor (WORKER_SLOTS over WORKER_CONCURRENCY over the workload)', () => {
  const none = { perCapability: {}, everyQueue: undefined, cores: 2 };

  it('gives each workload its default: io many, cpu two per core, browser a few', () => {
    expect(slotsFor('crt', 'io', none)).toBe(IO_SLOTS);
    expect(slotsFor('pii-redact', 'cpu', none)).toBe(4);
    expect(slotsFor('pii-redact', 'cpu', { ...none, cores: 8 })).toBe(16);
    expect(slotsFor('html-to-pdf', 'browser', none)).toBe(BROWSER_SLOTS);
  });

  it('WORKER_CONCURRENCY sets every queue; WORKER_SLOTS one capability over it', () => {
    const settings = { perCapability: { crt: 128 }, everyQueue: 4, cores: 2 };
    expect(slotsFor('crt', 'io', settings)).toBe(128);
    expect(slotsFor('pii-redact', 'cpu', settings)).toBe(4);
    expect(slotsFor('html-to-pdf', 'browser', settings)).toBe(4);
  });
});
