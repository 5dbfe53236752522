import { NotFoundError, ServiceUnavailableError } from '@svc/errors';
import { startRunFailure } from './run-orchestrator';

describe('startRunFailure (a start whose answer was lost may have recorded the run)', () => {
  const timedOut = new ServiceUnavailableError('orchestrator service did not answer within 3000 ms');

  it('says the run may have been recorded and how to retry with the key, keeping the 503', () => {
    const err = startRunFailure(timedOut, 'key-1');
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err).toMatchObject({
      status: 503,
      message:
        'orchestrator service did not answer within 3000 ms; the run may have been recorded: retry with the same Idempotency-Key',
    });
  });

  it('tells a client without a key to send one', () => {
    expect(startRunFailure(timedOut, undefined)).toMatchObject({
      status: 503,
      message:
        'orchestrator service did not answer within 3000 ms; the run may have been recorded; this request had no Idempotency-Key, so send one to retry without starting a second run',
    });
  });

  it("keeps the orchestrator's own words when they already say how to retry, and passes other errors", () => {
    const named = new ServiceUnavailableError(
      'wallet service did not answer within 3000 ms; run r was recorded but its hold is not confirmed yet: retry with the same Idempotency-Key',
    );
    expect(startRunFailure(named, 'key-1')).toBe(named);
    const missing = new NotFoundError('unknown capability: nope');
    expect(startRunFailure(missing, 'key-1')).toBe(missing);
  });
});
