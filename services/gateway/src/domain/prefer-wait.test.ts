import { PREFER_WAIT_MAX_SECONDS } from '@svc/contracts';
import { preferredWaitSeconds } from './prefer-wait';

describe('preferredWaitSeconds (Prefer: wait=N, RFC 7240)', () => {
  it.each<[string | undefined, number | undefined]>([
    ['wait=5', 5],
    ['WAIT=5', 5],
    ['wait="7"', 7],
    ['respond-async, wait=10', 10],
    ['wait=3; foo=bar', 3],
    // RFC 7240 §2: of a preference given twice, the first counts.
    ['wait=2, wait=9', 2],
    [`wait=${PREFER_WAIT_MAX_SECONDS}`, PREFER_WAIT_MAX_SECONDS],
    ['wait=600', PREFER_WAIT_MAX_SECONDS],
    ['wait=99999999999999999999', PREFER_WAIT_MAX_SECONDS],
    // Not understood: ignored, not refused.
    [undefined, undefined],
    ['', undefined],
    ['respond-async', undefined],
    ['wait', undefined],
    ['wait=0', undefined],
    ['wait=-1', undefined],
    ['wait=1.5', undefined],
    ['wait=abc', undefined],
    ['handling=lenient', undefined],
  ])('%j → %j', (header, seconds) => {
    expect(preferredWaitSeconds(header)).toBe(seconds);
  });
});
