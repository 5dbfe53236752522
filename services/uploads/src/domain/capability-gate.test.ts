import { ConflictError } from '@svc/errors';
import { assertSessionAllowed } from './capability-gate';

function execution(
  machine_run_status: string,
  effective_status: 'supported' | 'describe_only' = 'supported',
) {
  return { execution: { machine_run_status, effective_status, runtime: 'node', mode: 'async' as const } };
}

describe('assertSessionAllowed', () => {
  it('allows the modes that may be quoted and run', () => {
    for (const status of ['supported', 'runnable', 'requires_worker', 'plan_only']) {
      expect(() => assertSessionAllowed('pdf-extract-text', execution(status))).not.toThrow();
    }
  });

  it('refuses describe_only, missing and unknown modes with the quote wording', () => {
    expect(() => assertSessionAllowed('whois', execution('describe_only', 'describe_only'))).toThrow(
      new ConflictError(
        'capability whois cannot be quoted or run: its execution mode is describe_only (spec §2.1)',
      ),
    );
    expect(() => assertSessionAllowed('x', execution('', 'describe_only'))).toThrow(/is not published/);
    expect(() => assertSessionAllowed('x', execution('experimental', 'describe_only'))).toThrow(
      /"experimental" is not recognised and is treated as describe_only/,
    );
  });

  it('takes the stricter of the raw value and the registry effective status', () => {
    expect(() => assertSessionAllowed('x', execution('supported', 'describe_only'))).toThrow(ConflictError);
  });
});
