import { isNotable, readableLine } from './log-lines';

describe('readableLine (a service JSON log line, for a terminal)', () => {
  it('shows time, level, message and the fields the prefix does not already say', () => {
    const line = readableLine(
      '{"level":40,"time":"2026-12-07T10:35:25.995Z","service":"orchestrator","pid":7,"checks":{"postgres":{"ok":false,"error":"no answer within 1000 ms"}},"msg":"not ready"}',
    );
    expect(line).toEqual({
      level: 40,
      text: '10:35:25 WARN  not ready  checks={"postgres":{"ok":false,"error":"no answer within 1000 ms"}}',
    });
    expect(isNotable(line)).toBe(true);
  });

  it('quotes text with spaces, gives an error its message, and cuts very long lines', () => {
    const line = readableLine(
      JSON.stringify({
        level: 50,
        msg: 'job failed',
        job: 'pii-redact',
        err: { message: 'bad input', stack: 'Error: …' },
      }),
    );
    expect(line.text).toBe('ERROR job failed  job=pii-redact err="bad input"');
    expect(readableLine(JSON.stringify({ level: 30, msg: 'x'.repeat(1_000) })).text).toHaveLength(400);
  });

  it('keeps anything that is not a JSON log line as it is (a stack trace is notable)', () => {
    for (const raw of ['    at main (file.ts:1:1)', '{"no":"level"}', '[1,2]']) {
      expect(readableLine(raw)).toEqual({ level: undefined, text: raw });
      expect(isNotable(readableLine(raw))).toBe(true);
    }
    expect(isNotable(readableLine('{"level":30,"msg":"request completed"}'))).toBe(false);
  });
});
