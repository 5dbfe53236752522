import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PlainConsole } from './launcher-console';
import { PrefixedOutput } from './output';
import { TerminalConsole } from './terminal-console';

/** A stream that keeps what is written (not a terminal: no colours). */
class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

const INFO = '{"level":30,"time":"2026-12-07T10:00:01.000Z","service":"gateway","msg":"request completed"}';
const WARN = '{"level":40,"time":"2026-12-07T10:00:02.000Z","service":"wallet","msg":"not ready"}';

describe('what `pnpm start` prints', () => {
  let logDir: string;
  let out: Capture;
  let err: Capture;
  let output: PrefixedOutput;
  beforeEach(() => {
    logDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-console-')), 'logs');
    out = new Capture();
    err = new Capture();
    output = new PrefixedOutput(8, out, err);
  });
  afterEach(() => fs.rmSync(path.dirname(logDir), { recursive: true, force: true }));

  describe('on a terminal (TerminalConsole)', () => {
    it('is quiet while starting, then prints the held secrets and the banner last', () => {
      const view = new TerminalConsole(output, logDir, '.data/logs');
      view.log.info('migrations: applied 1');
      view.serviceLine('wallet', 'stdout', WARN);
      view.serviceLine('gateway', 'stdout', INFO);
      view.notice('made the vault keyring .data/vault-keyring.json');
      view.hold(['API key: svc_live_secret']);
      expect(out.text).toBe(
        'launcher | starting the platform; its logs go to .data/logs/ (only problems are shown here)\n',
      );
      expect(err.text).toBe('');

      view.ready(['READY BANNER']);
      expect(out.text.split('\n').slice(1)).toEqual([
        'launcher | made the vault keyring .data/vault-keyring.json',
        'API key: svc_live_secret',
        'READY BANNER',
        '',
      ]);
      view.close();
      // Everything went to the files: the services' lines as they were, the launcher's with a time.
      expect(fs.readFileSync(path.join(logDir, 'gateway.log'), 'utf8')).toBe(`${INFO}\n`);
      expect(fs.readFileSync(path.join(logDir, 'wallet.log'), 'utf8')).toBe(`${WARN}\n`);
      expect(fs.readFileSync(path.join(logDir, 'launcher.log'), 'utf8')).toMatch(
        /^\S+Z migrations: applied 1\n\S+Z made the vault keyring/,
      );
      expect(fs.statSync(path.join(logDir, 'gateway.log')).mode & 0o777).toBe(0o600);
    });

    it('once ready shows warnings, errors and stray lines readable, never info lines', () => {
      const view = new TerminalConsole(output, logDir, '.data/logs');
      view.ready(['READY BANNER']);
      const before = out.text;
      view.serviceLine('gateway', 'stdout', INFO);
      view.serviceLine('wallet', 'stdout', WARN);
      view.serviceLine('wallet', 'stderr', 'Error: boom');
      view.log.info('SIGINT: stopping the services');
      expect(out.text.slice(before.length)).toBe(
        'wallet   | 10:00:02 WARN  not ready\nlauncher | SIGINT: stopping the services\n',
      );
      expect(err.text).toBe('wallet   | Error: boom\n');
      view.close();
    });

    it('explains a failed start with what the services said, and still prints the held secrets', () => {
      const view = new TerminalConsole(output, logDir, '.data/logs');
      view.hold(['API key: svc_live_secret']);
      view.serviceLine('uploads', 'stderr', 'Error: EADDRINUSE');
      view.serviceLine('wallet', 'stdout', WARN);
      view.explain(['uploads']);
      expect(err.text).toBe('uploads  | Error: EADDRINUSE\n');
      view.log.error('start-up failed');
      view.explain();
      view.flushHeld();
      expect(out.text).toContain('wallet   | 10:00:02 WARN  not ready\nAPI key: svc_live_secret\n');
      view.close();
    });
  });

  describe('piped or in production (PlainConsole)', () => {
    it('hands every line on as it comes (JSON, prefixed), holding only the secrets for the banner', () => {
      const view = new PlainConsole(output);
      view.hold(['API key: svc_live_secret']);
      view.serviceLine('gateway', 'stdout', INFO);
      view.notice('made the vault keyring');
      view.ready(['READY BANNER']);
      expect(out.text).toBe(
        `gateway  | ${INFO}\nlauncher | made the vault keyring\nAPI key: svc_live_secret\nREADY BANNER\n`,
      );
      expect(fs.existsSync(logDir)).toBe(false);
    });
  });
});
