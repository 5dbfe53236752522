import path from 'node:path';
import { AccountStore, SessionStore } from '@svc/auth/accounts';
import { type CommandResult, createTestDatabase, runCommand, type TestDatabase } from '@svc/testkit';
import { adminInProcess } from './admin-in-process';

// The dashboard account commands against a fresh, migrated database; the password is read from
// stdin or generated and printed once. Commands that read stdin (--password-stdin) run the real CLI
// as a child process, with that stdin; the others run in this process (adminInProcess: what the bin
// runs, with the same env and cwd), sparing a node + tsx start each.
const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'tools/admin/bin/admin.cjs');

let database: TestDatabase;
let accounts: AccountStore;
let sessions: SessionStore;

/** Runs `admin …` in this process (no stdin), or as a child process with `stdin` written to its standard input (then closed). */
function runAdmin(args: string[], stdin?: string): Promise<CommandResult> {
  const env = { ...process.env, DATABASE_URL: database.url };
  if (stdin === undefined) return adminInProcess(args, { cwd: ROOT, env });
  return runCommand(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdin });
}

function json(result: CommandResult): Record<string, unknown> {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(result.stdout).toMatch(/^[^\n]+\n$/);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  database = await createTestDatabase('admin_accounts');
  accounts = new AccountStore(database.prisma);
  sessions = new SessionStore(database.prisma, { maxAgeMs: 3_600_000, idleMs: 3_600_000 });
  await database.prisma.client.create({ data: { name: 'acme' } });
});

afterAll(() => database?.drop());

describe('pnpm admin: dashboard accounts', () => {
  let generated: string;

  it('create-account generates a password, prints it once, and it signs in', async () => {
    const out = json(
      await runAdmin([
        'create-account',
        '--client',
        'acme',
        '--email',
        'Owner@Acme.example',
        '--role',
        'owner',
      ]),
    );
    expect(Object.keys(out).sort()).toEqual(['account_id', 'client_id', 'email', 'password', 'role']);
    expect(out).toMatchObject({ email: 'owner@acme.example', role: 'owner' });
    generated = String(out.password);
    expect(generated).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await accounts.verifyPassword('owner@acme.example', generated))?.id).toBe(out.account_id);
  });

  it('create-account --password-stdin takes the first stdin line and does not print it', async () => {
    const result = await runAdmin(
      [
        'create-account',
        '--client',
        'acme',
        '--email',
        'dev@acme.example',
        '--role',
        'developer',
        '--password-stdin',
      ],
      'piped in password\nsecond line ignored\n',
    );
    const out = json(result);
    expect(out).not.toHaveProperty('password');
    expect(result.stdout + result.stderr).not.toContain('piped in password');
    expect(await accounts.verifyPassword('dev@acme.example', 'piped in password')).not.toBeNull();
  });

  it('refuses a taken email, an unknown client and a short stdin password (exit 1, nothing written)', async () => {
    const taken = await runAdmin([
      'create-account',
      '--client',
      'acme',
      '--email',
      'owner@acme.example',
      '--role',
      'viewer',
    ]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists');
    const unknown = await runAdmin([
      'create-account',
      '--client',
      'nobody',
      '--email',
      'x@acme.example',
      '--role',
      'viewer',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown client: nobody');
    const short = await runAdmin(
      [
        'create-account',
        '--client',
        'acme',
        '--email',
        'y@acme.example',
        '--role',
        'viewer',
        '--password-stdin',
      ],
      'short\n',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    expect(short.stderr).not.toContain('short\n');
    expect(await accounts.findByEmail('x@acme.example')).toBeNull();
    expect(await accounts.findByEmail('y@acme.example')).toBeNull();
  });

  it('list-accounts prints accounts without password hashes', async () => {
    const result = await runAdmin(['list-accounts', '--client', 'acme']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.email, row.role])).toEqual([
      ['dev@acme.example', 'developer'],
      ['owner@acme.example', 'owner'],
    ]);
    expect(result.stdout).not.toMatch(/argon2|hash|password"/i);
  });

  it('reset-password sets a new one and signs the account out everywhere', async () => {
    const session = await sessions.start({
      accountId: (await accounts.findByEmail('owner@acme.example'))?.id ?? '',
    });
    const out = json(await runAdmin(['reset-password', '--email', 'owner@acme.example']));
    expect(out).toMatchObject({ email: 'owner@acme.example', revoked_sessions: 1 });
    expect(await sessions.lookup(session.token)).toBeNull();
    expect(await accounts.verifyPassword('owner@acme.example', generated)).toBeNull();
    expect(await accounts.verifyPassword('owner@acme.example', String(out.password))).not.toBeNull();
    const missing = await runAdmin(['reset-password', '--email', 'nobody@acme.example']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no account with email nobody@acme.example');
  });

  it('revoke-sessions and disable-account end the sessions; a disabled account cannot sign in', async () => {
    const account = await accounts.findByEmail('dev@acme.example');
    const first = await sessions.start({ accountId: account?.id ?? '' });
    expect(json(await runAdmin(['revoke-sessions', '--email', 'dev@acme.example']))).toEqual({
      email: 'dev@acme.example',
      revoked_sessions: 1,
    });
    expect(await sessions.lookup(first.token)).toBeNull();
    const second = await sessions.start({ accountId: account?.id ?? '' });
    const out = json(await runAdmin(['disable-account', '--email', 'dev@acme.example']));
    expect(out).toMatchObject({
      email: 'dev@acme.example',
      revoked_sessions: 1,
      disabled_at: expect.any(String),
    });
    expect(await sessions.lookup(second.token)).toBeNull();
    expect(await accounts.verifyPassword('dev@acme.example', 'piped in password')).toBeNull();
  });
});
