import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './program';

/**
 * The README's CLI section against `svc --help` (docs/decisions.md SC14): every command and every
 * configuration variable the help names is in the README too, so a new one cannot go undocumented.
 */

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

async function help(): Promise<string> {
  let out = '';
  const code = await runCli(['--help'], {
    io: { stdout: (text) => (out += text), stderr: () => undefined, interactive: false, color: false },
    env: {},
    cwd: '/tmp',
  });
  expect(code).toBe(0);
  return out;
}

describe('README and svc --help', () => {
  it('names every command of the help', async () => {
    const text = await help();
    const block = text.slice(text.indexOf('Commands:'));
    const commands = block
      .slice(0, block.indexOf('\n\n'))
      .split('\n')
      .map((line) => /^ {2}([a-z]+) /.exec(line)?.[1])
      .filter((name): name is string => name !== undefined && name !== 'help');
    expect(commands).toEqual(expect.arrayContaining(['search', 'run', 'whoami']));
    expect(commands.filter((name) => !README.includes(`svc ${name}`))).toEqual([]);
    // Routed before commander (SC6), so not in its list.
    expect(README).toContain('svc contract check');
  });

  it('names every configuration variable of the help', async () => {
    const variables = [...new Set((await help()).match(/\bSVC_[A-Z_]+\b/g))];
    expect(variables).toEqual(expect.arrayContaining(['SVC_API_KEY', 'SVC_BASE_URL']));
    expect(variables.filter((name) => !README.includes(name))).toEqual([]);
  });
});
