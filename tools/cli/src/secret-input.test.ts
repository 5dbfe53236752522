import { EventEmitter } from 'node:events';
import { InterruptedError, readSecretLine, type SecretTerminal } from './secret-input';

/** A fake terminal: records raw-mode switches and everything written to the screen. */
function fakeTerminal() {
  const emitter = new EventEmitter();
  const rawModes: boolean[] = [];
  let screen = '';
  const terminal: SecretTerminal = {
    input: {
      isTTY: true,
      setRawMode: (raw: boolean) => rawModes.push(raw),
      on: (event, listener) => emitter.on(event, listener),
      removeListener: (event, listener) => emitter.removeListener(event, listener),
      resume: () => undefined,
      pause: () => undefined,
    },
    output: {
      write: (text: string) => {
        screen += text;
      },
    },
  };
  return {
    terminal,
    type: (text: string) => emitter.emit('data', Buffer.from(text)),
    rawModes,
    screen: () => screen,
    listeners: () => emitter.listenerCount('data'),
  };
}

describe('readSecretLine', () => {
  it('reads a line in raw mode and shows nothing of it', async () => {
    const fake = fakeTerminal();
    const line = readSecretLine(fake.terminal, 'API key: ');
    fake.type('svc_live_');
    fake.type('abc\r');
    await expect(line).resolves.toBe('svc_live_abc');
    expect(fake.screen()).toBe('API key: \n');
    expect(fake.rawModes).toEqual([true, false]);
    expect(fake.listeners()).toBe(0);
  });

  it('edits with Backspace and Ctrl-U, drops arrow keys and control characters', async () => {
    const fake = fakeTerminal();
    const line = readSecretLine(fake.terminal, '> ');
    fake.type('wrong\u0015ke\u007fey\u001b[D\u001bOA\t1\b2');
    fake.type('\n');
    await expect(line).resolves.toBe('key2');
    expect(fake.screen()).toBe('> \n');
  });

  it('ends at Ctrl-D; stops at the first line end', async () => {
    const fake = fakeTerminal();
    const line = readSecretLine(fake.terminal, '> ');
    fake.type('abc\u0004def\r');
    await expect(line).resolves.toBe('abc');
  });

  it('Ctrl-C rejects with InterruptedError and leaves raw mode', async () => {
    const fake = fakeTerminal();
    const line = readSecretLine(fake.terminal, '> ');
    fake.type('secret\u0003');
    await expect(line).rejects.toBeInstanceOf(InterruptedError);
    expect(fake.rawModes).toEqual([true, false]);
    expect(fake.screen()).not.toContain('secret');
  });
});
