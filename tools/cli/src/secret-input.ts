/** Ctrl-C at a prompt: svc exits 130 without writing anything. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}

/** The terminal side of a secret prompt (process.stdin / process.stderr; tests pass fakes). */
export interface SecretTerminal {
  readonly input: {
    readonly isTTY?: boolean;
    setRawMode(raw: boolean): unknown;
    on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
    removeListener(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
    resume(): unknown;
    pause(): unknown;
  };
  readonly output: { write(text: string): unknown };
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const ESC = '\u001b';
const BACKSPACES = new Set(['\u007f', '\b']);

/**
 * Reads one line at a terminal without echo (like ssh or sudo: not even asterisks, so neither the
 * key nor its length is on screen or in a recorded session). The terminal goes to raw mode for the
 * read and back after, also on Ctrl-C (InterruptedError). Enter (or Ctrl-D) ends the line,
 * Backspace and Ctrl-U edit it; other control characters and escape sequences (arrow keys) are dropped.
 */
export function readSecretLine(terminal: SecretTerminal, prompt: string): Promise<string> {
  const { input, output } = terminal;
  return new Promise((resolve, reject) => {
    let line = '';
    // Inside an escape sequence (an arrow key: ESC [ A): 'esc' after ESC, 'csi' after ESC [ or ESC O.
    let sequence: 'none' | 'esc' | 'csi' = 'none';
    const finish = (error?: Error) => {
      input.removeListener('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error === undefined) resolve(line);
      else reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (sequence === 'esc') {
          sequence = char === '[' || char === 'O' ? 'csi' : 'none';
          continue;
        }
        if (sequence === 'csi') {
          if (char >= '@' && char <= '~') sequence = 'none';
          continue;
        }
        if (char === ESC) {
          sequence = 'esc';
          continue;
        }
        if (char === '\r' || char === '\n' || char === CTRL_D) {
          finish();
          return;
        }
        if (char === CTRL_C) {
          finish(new InterruptedError('interrupted'));
          return;
        }
        if (BACKSPACES.has(char)) line = [...line].slice(0, -1).join('');
        else if (char === CTRL_U) line = '';
        else if (char >= ' ' && char !== '\u007f') line += char;
      }
    };
    // Raw mode (no echo) before the prompt: whatever is typed once the prompt shows is never echoed.
    input.setRawMode(true);
    output.write(prompt);
    input.on('data', onData);
    input.resume();
  });
}
