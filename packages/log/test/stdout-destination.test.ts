import { execFileSync } from 'node:child_process';
import path from 'node:path';

const TSX = path.resolve(__dirname, '../../../node_modules/.bin/tsx');
const API_KEY = 'svc_live_AbCdEf123456_9sX2kLmNoPqRsTuVwXyZ0123456789abcdefghij';

test('the default destination (stdout) is scrubbed too, in order, complete at process.exit', () => {
  const script = [
    "import { createLogger } from './src/index';",
    "const logger = createLogger({ service: 'child' });",
    `logger.info({ authorization: 'Bearer x' }, 'key ${API_KEY}');`,
    "logger.info('last line');",
    'process.exit(0);',
  ].join('\n');
  const out = execFileSync(TSX, ['-e', script], { cwd: path.resolve(__dirname, '..'), encoding: 'utf8' });
  const lines = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((l) => l.msg)).toEqual(['key [redacted]', 'last line']);
  expect(lines[0]).toMatchObject({ service: 'child', authorization: '[redacted]' });
  expect(out).not.toContain('AbCdEf123456');
});
