import { RUN_STATE_TRANSITIONS } from '@svc/contracts';
import { RUN_QUOTE_TTL_MS } from '../../../services/orchestrator/src/domain/quote';
import { TRANSITIONS } from '../../../services/orchestrator/src/domain/transitions';
import { UploadsEnv } from '../../../services/uploads/src/env';
import { buildManifest } from '../src/generate/manifest';

/**
 * What the manifest declares about behaviour owned by a service (run transitions, quote and
 * upload-session lifetimes) is what that service does: a change there without one here fails.
 */
const elements = new Map(buildManifest().elements.map((element) => [element.id, element]));

describe('the manifest agrees with the services', () => {
  test("every report transition of the orchestrator is in the contracts' RUN_STATE_TRANSITIONS", () => {
    for (const transition of Object.values(TRANSITIONS)) {
      for (const from of transition.from)
        expect({ from, to: RUN_STATE_TRANSITIONS[from] }).toEqual({
          from,
          to: expect.arrayContaining([transition.to]),
        });
    }
    // A claim moves a queued or retrying run to running (claim-attempt.ts).
    expect(RUN_STATE_TRANSITIONS.queued).toContain('running');
    expect(RUN_STATE_TRANSITIONS.retrying).toContain('running');
    // And nothing else: every listed target is a claim or a report.
    const reachable = new Set(['running', ...Object.values(TRANSITIONS).map((t) => t.to)]);
    for (const targets of Object.values(RUN_STATE_TRANSITIONS)) {
      for (const to of targets) expect(reachable).toContain(to);
    }
  });

  test('quote.ttl is the orchestrator quote lifetime', () => {
    expect(elements.get('limit:quote.ttl')).toMatchObject({ value: RUN_QUOTE_TTL_MS, unit: 'milliseconds' });
  });

  test("upload_session.ttl is the uploads service's default UPLOAD_SESSION_TTL_MS", () => {
    const byDefault = UploadsEnv.shape.UPLOAD_SESSION_TTL_MS.parse(undefined);
    expect(elements.get('limit:upload_session.ttl')).toMatchObject({
      value: byDefault,
      unit: 'milliseconds',
    });
  });
});
