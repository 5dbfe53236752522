import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { enterableByOthers } from '../src/postgres-user-access';

describe('enterableByOthers', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-access-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is false below a directory without the others-execute bit', () => {
    fs.chmodSync(root, 0o700);
    expect(enterableByOthers(path.join(root, 'data', 'postgres'))).toBe(false);
  });

  it('is true when every directory on the way may be entered (listing is not needed)', () => {
    fs.chmodSync(root, 0o711);
    fs.mkdirSync(path.join(root, 'data'), { mode: 0o755 });
    expect(enterableByOthers(path.join(root, 'data', 'postgres'))).toBe(true);
  });

  it('looks at every level, not only the nearest', () => {
    fs.chmodSync(root, 0o700);
    fs.mkdirSync(path.join(root, 'open'), { mode: 0o755 });
    expect(enterableByOthers(path.join(root, 'open'))).toBe(false);
  });
});
