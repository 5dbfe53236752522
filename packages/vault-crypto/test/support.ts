import { randomBytes } from 'node:crypto';
import { LocalKeyring } from '../src/index';

/** A keyring document with fresh keys for `versions`, `current` by default the last. */
export function keyringJson(versions: number[], current = versions[versions.length - 1]): string {
  return JSON.stringify({
    current,
    keys: versions.map((version) => ({ version, key: randomBytes(32).toString('base64') })),
  });
}

export function keyring(versions: number[], current?: number): LocalKeyring {
  return LocalKeyring.fromJson(keyringJson(versions, current), 'test keyring');
}
