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

describe('parseAdminArgs: dashboard accounts', () => {
  it('parses create-account (email lowercased; password generated unless --password-stdin)', () => {
    expect(
      parseAdminArgs([
        'create-account',
        '--client',
        ' acme ',
        '--email',
        ' Ada@Example.com',
        '--role',
        'developer',
      ]),
    ).toEqual({
      command: 'create-account',
      clientName: 'acme',
      email: 'ada@example.com',
      role: 'developer',
      passwordFromStdin: false,
    });
    expect(
      parseAdminArgs([
        'create-account',
        '--client',
        'a',
        '--email',
        'a@b.c',
        '--role',
        'owner',
        '--password-stdin',
      ]),
    ).toMatchObject({ passwordFromStdin: true });
  });

  it('refuses an unknown role, a missing option, a non-email and a password on the command line', () => {
    expect(
      usageError(['create-account', '--client', 'a', '--email', 'a@b.c', '--role', 'admin']).message,
    ).toBe('--role must be one of owner, developer, viewer');
    expect(usageError(['create-account', '--email', 'a@b.c', '--role', 'owner']).message).toBe(
      '--client is required',
    );
    expect(usageError(['reset-password', '--email', 'not-an-email']).message).toBe(
      '--email must be an email address',
    );
    expect(usageError(['reset-password', '--email', 'a@b.c', '--password', 'hunter2hunter2']).command).toBe(
      'reset-password',
    );
  });

  it('parses list-accounts, reset-password, disable-account and revoke-sessions', () => {
    expect(parseAdminArgs(['list-accounts'])).toEqual({ command: 'list-accounts', clientName: null });
    expect(parseAdminArgs(['list-accounts', '--client', 'acme'])).toEqual({
      command: 'list-accounts',
      clientName: 'acme',
    });
    expect(parseAdminArgs(['reset-password', '--email', 'A@b.c', '--password-stdin'])).toEqual({
      command: 'reset-password',
      email: 'a@b.c',
      passwordFromStdin: true,
    });
    expect(parseAdminArgs(['disable-account', '--email', 'a@b.c'])).toEqual({
      command: 'disable-account',
      email: 'a@b.c',
    });
    expect(parseAdminArgs(['revoke-sessions', '--email', 'a@b.c'])).toEqual({
      command: 'revoke-sessions',
      email: 'a@b.c',
    });
    expect(parseAdminArgs(['disable-account', '-h'])).toEqual({ command: 'help', topic: 'disable-account' });
    expect(usage()).toContain('create-account --client NAME --email EMAIL --role owner|developer|viewer');
  });
});
