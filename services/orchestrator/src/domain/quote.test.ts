import { executionMessage } from './quote';

describe('executionMessage (quote.execution.message)', () => {
  it('says what a run will do in each mode, with and without a worker of the runtime up', () => {
    expect(executionMessage('supported', 'node', true)).toBe('supported: runs on a worker with runtime node');
    expect(executionMessage('supported', 'node', false)).toBe(
      'supported: no worker with runtime node is up right now; a run waits queued until one is',
    );
    expect(executionMessage('requires_worker', 'browser', true)).toBe(
      'requires_worker: a worker with runtime browser is up; a run starts when one takes it',
    );
    expect(executionMessage('requires_worker', 'browser', false)).toBe(
      'requires_worker: no worker with runtime browser is up yet; a run is accepted and waits queued until one is',
    );
    expect(executionMessage('plan_only', 'node', false)).toBe(
      'plan_only: the run returns a plan at once; the server runs nothing',
    );
  });
});
