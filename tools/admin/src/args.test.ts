import { generateApiKey } from '@svc/auth';
import { parseAdminArgs, UsageError, usage } from './args';

function usageError(argv: string[]): UsageError {
  try {
    parseAdminArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      return err;
    }
    throw err;
  }
  throw new Error(`expected a UsageError for ${argv.join(' ')}`);
}

describe('parseAdminArgs', () => {
  it('parses create-key with every option', () => {
    expect(
      parseAdminArgs([
        'create-key',
        '--client',
        'acme',
        '--scopes',
        'capabilities:read, capabilities:run',
        '--label',
        'ci',
        '--balance-usd',
        '12.345678',
        '--spend-cap-usd',
        '100',
      ]),
    ).toEqual({
      command: 'create-key',
      clientName: 'acme',
      scopes: ['capabilities:read', 'capabilities:run'],
      label: 'ci',
      balanceMicros: 12_345_678n,
      spendCapMicros: 100_000_000n,
    });
  });

  it('leaves optional create-key values null', () => {
    expect(parseAdminArgs(['create-key', '--client=acme', '--scopes=billing:read'])).toEqual({
      command: 'create-key',
      clientName: 'acme',
      scopes: ['billing:read'],
      label: null,
      balanceMicros: null,
      spendCapMicros: null,
    });
  });

  it('names an unknown scope and lists the valid ones', () => {
    const error = usageError(['create-key', '--client', 'acme', '--scopes', 'capabilities:read,root']);
    expect(error.message).toContain('root');
    expect(error.message).toContain('capabilities:quote');
    expect(error.command).toBe('create-key');
  });

  it('rejects bad amounts', () => {
    const base = ['create-key', '--client', 'acme', '--scopes', 'billing:read'];
    expect(usageError([...base, '--balance-usd', '-1']).message).toContain('--balance-usd');
    expect(usageError([...base, '--balance-usd=-1']).message).toContain('non-negative');
    expect(usageError([...base, '--balance-usd', '1.0000001']).message).toContain('6 decimals');
    expect(usageError([...base, '--spend-cap-usd', 'ten']).message).toContain('--spend-cap-usd');
  });

  it('requires --client and --scopes', () => {
    expect(usageError(['create-key', '--scopes', 'billing:read']).message).toContain('--client');
    expect(usageError(['create-key', '--client', 'acme']).message).toContain('--scopes');
    expect(usageError(['create-key', '--client', 'acme', '--scopes', ' , ']).message).toContain('scope');
  });

  it('rejects unknown options and commands', () => {
    expect(usageError(['create-key', '--client', 'a', '--scopes', 'billing:read', '--x']).command).toBe(
      'create-key',
    );
    expect(usageError(['drop-everything']).message).toContain('unknown command');
    expect(usageError([]).message).toContain('missing command');
  });

  it('parses list-keys with and without a client', () => {
    expect(parseAdminArgs(['list-keys'])).toEqual({ command: 'list-keys', clientName: null });
    expect(parseAdminArgs(['list-keys', '--client', 'acme'])).toEqual({
      command: 'list-keys',
      clientName: 'acme',
    });
  });

  it('revoke-key takes a key id or a whole key, and never echoes a bad argument', () => {
    const key = generateApiKey();
    expect(parseAdminArgs(['revoke-key', key.keyId])).toEqual({ command: 'revoke-key', keyId: key.keyId });
    expect(parseAdminArgs(['revoke-key', key.apiKey])).toEqual({ command: 'revoke-key', keyId: key.keyId });
    const tampered = `${key.apiKey.slice(0, -1)}${key.apiKey.endsWith('a') ? 'b' : 'a'}`;
    const error = usageError(['revoke-key', tampered]);
    expect(error.message).not.toContain(key.keyId);
    expect(usageError(['revoke-key']).command).toBe('revoke-key');
    expect(usageError(['revoke-key', key.keyId, key.keyId]).command).toBe('revoke-key');
  });

  it('parses set-balance, with and without a note', () => {
    expect(parseAdminArgs(['set-balance', '--client', 'acme', '--usd', '12.5'])).toEqual({
      command: 'set-balance',
      clientName: 'acme',
      balanceMicros: 12_500_000n,
      note: null,
    });
    expect(parseAdminArgs(['set-balance', '--client=acme', '--usd=0', '--note', ' refund #42 '])).toEqual({
      command: 'set-balance',
      clientName: 'acme',
      balanceMicros: 0n,
      note: 'refund #42',
    });
  });

  it('rejects set-balance without --client or --usd, or with a bad amount', () => {
    expect(usageError(['set-balance', '--usd', '1'])).toMatchObject({
      message: '--client is required',
      command: 'set-balance',
    });
    expect(usageError(['set-balance', '--client', 'acme']).message).toBe('--usd is required');
    expect(usageError(['set-balance', '--client', 'acme', '--usd=-1']).message).toContain('--usd');
    expect(usageError(['set-balance', '--client', 'acme', '--usd', '1.0000001']).message).toContain(
      '6 decimals',
    );
    expect(usageError(['set-balance', '--client', 'acme', '--usd', '1', '--none']).command).toBe(
      'set-balance',
    );
  });

  it('parses set-spend-cap with --usd or --none', () => {
    expect(parseAdminArgs(['set-spend-cap', '--client', 'acme', '--usd', '0.02'])).toEqual({
      command: 'set-spend-cap',
      clientName: 'acme',
      spendCapMicros: 20_000n,
    });
    expect(parseAdminArgs(['set-spend-cap', '--client', 'acme', '--none'])).toEqual({
      command: 'set-spend-cap',
      clientName: 'acme',
      spendCapMicros: null,
    });
  });

  it('wants exactly one of --usd and --none for set-spend-cap', () => {
    const neither = usageError(['set-spend-cap', '--client', 'acme']);
    expect(neither).toMatchObject({
      message: 'give exactly one of --usd N or --none',
      command: 'set-spend-cap',
    });
    expect(usageError(['set-spend-cap', '--client', 'acme', '--usd', '1', '--none']).message).toBe(
      'give exactly one of --usd N or --none',
    );
    expect(usageError(['set-spend-cap', '--none']).message).toBe('--client is required');
    expect(usageError(['set-spend-cap', '--client', 'acme', '--usd', 'lots']).message).toContain('--usd');
  });

  it('answers --help globally and per command', () => {
    expect(parseAdminArgs(['--help'])).toEqual({ command: 'help', topic: null });
    expect(parseAdminArgs(['help', 'list-keys'])).toEqual({ command: 'help', topic: 'list-keys' });
    expect(parseAdminArgs(['create-key', '--help'])).toEqual({ command: 'help', topic: 'create-key' });
    expect(parseAdminArgs(['revoke-key', '-h'])).toEqual({ command: 'help', topic: 'revoke-key' });
    expect(usage()).toContain('create-key');
    expect(usage()).toContain('vault:fill');
    expect(usage('revoke-key')).not.toContain('list-keys');
    expect(parseAdminArgs(['set-balance', '--help'])).toEqual({ command: 'help', topic: 'set-balance' });
    expect(parseAdminArgs(['help', 'set-spend-cap'])).toEqual({ command: 'help', topic: 'set-spend-cap' });
    expect(usage()).toContain('set-balance --client NAME --usd N [--note TEXT]');
    expect(usage('set-spend-cap')).toContain('set-spend-cap --client NAME (--usd N | --none)');
    expect(usage('set-spend-cap')).not.toContain('Scopes:');
  });
});
