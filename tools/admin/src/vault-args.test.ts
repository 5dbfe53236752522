import { parseAdminArgs, UsageError, usage } from './args';

function usageError(argv: string[]): UsageError {
  try {
    parseAdminArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`expected a UsageError for ${argv.join(' ')}`);
}

describe('pnpm admin vault', () => {
  it('parses add-key, rotate and rotation', () => {
    expect(parseAdminArgs(['vault', 'add-key'])).toEqual({
      command: 'vault',
      subcommand: 'add-key',
      keyringFile: null,
      keepCurrent: false,
    });
    expect(parseAdminArgs(['vault', 'add-key', '--keyring', 'k.json', '--keep-current'])).toEqual({
      command: 'vault',
      subcommand: 'add-key',
      keyringFile: 'k.json',
      keepCurrent: true,
    });
    expect(parseAdminArgs(['vault', 'rotate'])).toEqual({
      command: 'vault',
      subcommand: 'rotate',
      wait: false,
    });
    expect(parseAdminArgs(['vault', 'rotate', '--wait'])).toEqual({
      command: 'vault',
      subcommand: 'rotate',
      wait: true,
    });
    expect(parseAdminArgs(['vault', 'rotation'])).toEqual({ command: 'vault', subcommand: 'rotation' });
    expect(parseAdminArgs(['vault', 'retire-key', '2'])).toEqual({
      command: 'vault',
      subcommand: 'retire-key',
      version: 2,
      keyringFile: null,
    });
  });

  it('asks for help', () => {
    expect(parseAdminArgs(['vault'])).toEqual({ command: 'help', topic: 'vault' });
    expect(parseAdminArgs(['vault', 'rotate', '--help'])).toEqual({ command: 'help', topic: 'vault' });
    expect(usage('vault')).toContain('pnpm admin vault rotate [--wait]');
  });

  it('refuses mistakes with the vault usage', () => {
    expect(usageError(['vault', 'turn']).message).toContain('unknown vault command "turn"');
    expect(usageError(['vault', 'turn']).command).toBe('vault');
    expect(usageError(['vault', 'rotation', '--wait']).command).toBe('vault');
    expect(usageError(['vault', 'add-key', '--keyring']).command).toBe('vault');
    expect(usageError(['vault', 'retire-key']).message).toContain('exactly one VERSION');
    expect(usageError(['vault', 'retire-key', '0']).command).toBe('vault');
    expect(usageError(['vault', 'retire-key', '1', '2']).command).toBe('vault');
  });
});
