import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_CANDIDATES, chooseWorkerRuntimes, isExecutableFile } from './worker-runtimes';

describe('chooseWorkerRuntimes', () => {
  const present = () => true;
  const absent = () => false;

  it('serves node and browser when Chromium is installed and nothing was chosen', () => {
    const choice = chooseWorkerRuntimes({
      configured: undefined,
      chromiumPath: '/usr/bin/chromium',
      isExecutable: present,
    });
    expect(choice.runtimes).toBe('node,browser');
    // The operator's CHROMIUM_PATH reaches the worker as it is.
    expect(choice.chromiumPath).toBeUndefined();
    expect(choice.note).toEqual({ level: 'info', text: expect.stringContaining('/usr/bin/chromium') });
  });

  it('without CHROMIUM_PATH, hands the worker the first installed candidate (the headless shell first)', () => {
    expect(CHROMIUM_CANDIDATES[0]).toBe('/usr/bin/chromium-headless-shell');
    const both = chooseWorkerRuntimes({
      configured: undefined,
      chromiumPath: undefined,
      isExecutable: present,
    });
    expect(both).toMatchObject({
      runtimes: 'node,browser',
      chromiumPath: '/usr/bin/chromium-headless-shell',
    });
    const seen: string[] = [];
    const fullOnly = chooseWorkerRuntimes({
      configured: undefined,
      chromiumPath: undefined,
      isExecutable: (file) => {
        seen.push(file);
        return file === '/usr/bin/chromium';
      },
    });
    expect(seen).toEqual(['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']);
    expect(fullOnly).toMatchObject({ runtimes: 'node,browser', chromiumPath: '/usr/bin/chromium' });
    expect(fullOnly.note?.text).toContain('Chromium at /usr/bin/chromium;');
    const none = chooseWorkerRuntimes({
      configured: undefined,
      chromiumPath: undefined,
      isExecutable: absent,
    });
    expect(none).toMatchObject({ runtimes: 'node', chromiumPath: undefined });
    expect(none.note?.text).toContain('no Chromium at /usr/bin/chromium-headless-shell or /usr/bin/chromium');
  });

  it('stays node and says why html-to-pdf will wait when Chromium is missing', () => {
    const seen: string[] = [];
    const choice = chooseWorkerRuntimes({
      configured: '  ',
      chromiumPath: '/opt/none/chromium',
      isExecutable: (file) => {
        seen.push(file);
        return absent();
      },
    });
    expect(seen).toEqual(['/opt/none/chromium']);
    expect(choice.runtimes).toBe('node');
    expect(choice.note?.level).toBe('warn');
    expect(choice.note?.text).toContain('html-to-pdf runs wait');
    expect(choice.note?.text).toContain('/opt/none/chromium');
  });

  it("leaves the operator's WORKER_RUNTIMES alone, without looking for Chromium", () => {
    const choice = chooseWorkerRuntimes({
      configured: 'node',
      chromiumPath: '/usr/bin/chromium',
      isExecutable: () => {
        throw new Error('must not be asked');
      },
    });
    expect(choice).toEqual({ runtimes: undefined, chromiumPath: undefined, note: undefined });
  });
});

describe('isExecutableFile', () => {
  it('is true for an executable file only', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'launcher-chromium-'));
    try {
      const file = path.join(dir, 'chromium');
      writeFileSync(file, '#!/bin/sh\n');
      chmodSync(file, 0o644);
      // root may read anything but still needs an x bit to execute.
      expect(isExecutableFile(file)).toBe(false);
      chmodSync(file, 0o755);
      expect(isExecutableFile(file)).toBe(true);
      expect(isExecutableFile(path.join(dir, 'missing'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
