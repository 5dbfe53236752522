import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED_STACK_BEFORE_ALL_MS, type SharedTestStack, sharedTestStack } from '@svc/testkit';
import { svcInPty } from './support';

/**
 * `svc` at a real terminal: a pseudo-terminal from util-linux `script` (docs/decisions.md SC3, SC5).
 * `svc login` reads the key without echo; `run --wait` shows the ora spinner on a terminal of known
 * size and plain lines on one without (a pty of 0 columns made ora redraw endlessly).
 */

jest.setTimeout(120_000);

const SCOPES = ['capabilities:read', 'capabilities:quote', 'capabilities:run', 'billing:read'];
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const tag = randomBytes(4).toString('hex');

let stack: SharedTestStack;
let dir: string;
let apiKey: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  dir = await mkdtemp(join(tmpdir(), 'svc-pty-'));
  apiKey = (await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' })).apiKey;
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('svc login at a terminal', () => {
  it('reads the key without echo and saves it with mode 600', async () => {
    const home = join(dir, 'login');
    const session = svcInPty(['login', '--base-url', stack.gatewayUrl], { HOME: home }, { columns: 100 });
    await session.waitFor(/API key \(not shown/);
    session.type(`${apiKey}\r`);
    const { code, screen } = await session.exit;
    expect(code).toBe(0);
    // With echo on, the terminal itself would have shown every typed character.
    // (booleans: a failure message must not print the key either)
    expect(screen.includes(apiKey)).toBe(false);
    expect(screen.includes(apiKey.slice(-12))).toBe(false);
    expect(screen).toContain('saved the key to');
    const config = join(home, '.config', 'svc', 'config.json');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      base_url: stack.gatewayUrl,
      api_key: apiKey,
    });
    expect(statSync(config).mode & 0o777).toBe(0o600);

    // The saved key works.
    const balance = svcInPty(['balance', '--json'], { HOME: home });
    const answer = await balance.exit;
    expect(answer.code).toBe(0);
    expect(answer.screen).toMatch(/"remaining_usd"/);
  });

  it('Ctrl-C at the prompt exits 130 and writes nothing', async () => {
    const home = join(dir, 'login-interrupted');
    const session = svcInPty(['login'], { HOME: home }, { columns: 100 });
    await session.waitFor(/API key \(not shown/);
    session.type(`svc_half_${tag}\u0003`);
    const { code, screen } = await session.exit;
    expect(code).toBe(130);
    expect(screen).not.toContain(`svc_half_${tag}`);
    expect(existsSync(join(home, '.config', 'svc', 'config.json'))).toBe(false);
  });
});

describe('svc run --wait at a terminal', () => {
  const input = () => {
    const file = join(dir, `input-${randomBytes(3).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify({ text: `Mail jane.${tag}@example.com` }));
    return file;
  };
  const env = () => ({ HOME: dir, SVC_BASE_URL: stack.gatewayUrl, SVC_API_KEY: apiKey });

  it('shows a spinner, leaves each step on screen and ends with the final state', async () => {
    const session = svcInPty(['run', 'pii-redact', '--input', `@${input()}`, '--wait'], env(), {
      columns: 100,
    });
    const { code, screen } = await session.exit;
    expect(code).toBe(0);
    // ora drew: the cursor hidden while it spins (shown again at the end), a frame of its dots.
    expect(screen).toContain(HIDE_CURSOR);
    expect(screen).toContain(SHOW_CURSOR);
    expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/u);
    // The earlier steps stay as ℹ lines, the last one is ✔.
    expect(screen).toMatch(/ℹ quoted \d[\d.]* USD/u);
    expect(screen).toMatch(/✔ run [0-9a-f-]{36}: completed/u);
    expect(screen).not.toContain(`jane.${tag}@example.com"`);
  });

  it('prints plain lines on a terminal without a size (no spinner)', async () => {
    const session = svcInPty(['run', 'pii-redact', '--input', `@${input()}`, '--wait'], env());
    const { code, screen } = await session.exit;
    expect(code).toBe(0);
    expect(screen).not.toContain(HIDE_CURSOR);
    expect(screen).toMatch(/^quoted \d/m);
    expect(screen).toMatch(/^run [0-9a-f-]{36}: completed/m);
  });
});
