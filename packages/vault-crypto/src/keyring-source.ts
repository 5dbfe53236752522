import fs from 'node:fs';
import { KeyringError } from './errors';
import { type KeyEncryptionKeys, LocalKeyring } from './keyring';
import { loadKeyringFile } from './keyring-file';

/**
 * Where the vault's key-encryption keys come from, and how a new version reaches a running vault
 * without a restart: the file is polled (mtime, size, inode; every 5 s by default) and re-read when
 * it changes. A change that does not load (bad JSON, wrong mode, removed file) keeps the keyring in
 * use and is reported once per change, so a typo while editing never stops the vault.
 */

/** ms between two looks at the keyring file. */
export const DEFAULT_KEYRING_POLL_MS = 5_000;

export interface KeyringChange {
  currentVersion: number;
  versions: readonly number[];
}

export interface KeyringHooks {
  /** A changed file was loaded and is now in use. */
  onChange?: (change: KeyringChange) => void;
  /** A changed file was refused; the previous keyring stays in use. The message holds no key material. */
  onError?: (err: KeyringError) => void;
  /** Worth an operator's attention, not fatal (e.g. the file is readable by group/others). */
  onWarning?: (message: string) => void;
  /** ms between polls (default 5000). */
  intervalMs?: number;
}

/** The keyring in use and how to stop watching it. */
export interface KeyringHandle {
  /** Always the latest good keyring: pass it to sealValue/openValue/rewrap once, it follows reloads. */
  readonly keys: KeyEncryptionKeys;
  /** Stops the poll (no-op for an inline keyring). A promise, as service-kit's Closable wants. */
  close(): Promise<void>;
}

/** A KeyEncryptionKeys that forwards to whichever keyring is current at the time of the call. */
class Delegating implements KeyEncryptionKeys {
  constructor(private readonly latest: () => KeyEncryptionKeys) {}

  get currentVersion(): number {
    return this.latest().currentVersion;
  }

  get versions(): readonly number[] {
    return this.latest().versions;
  }

  wrap(dataKey: Uint8Array, aad: string, version?: number): Promise<Buffer> {
    return this.latest().wrap(dataKey, aad, version);
  }

  unwrap(wrapped: Uint8Array, version: number, aad: string): Promise<Buffer> {
    return this.latest().unwrap(wrapped, version, aad);
  }
}

/** What identifies one state of the file: a rename over it changes the inode even within one mtime tick. */
function signature(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.mode}`;
  } catch {
    return 'missing';
  }
}

function asKeyringError(err: unknown): KeyringError {
  return err instanceof KeyringError ? err : new KeyringError('the keyring file could not be loaded');
}

/**
 * Loads `file` now (throws KeyringError if it is unusable: the vault must not start without keys)
 * and re-reads it whenever it changes.
 */
export function watchKeyringFile(file: string, hooks: KeyringHooks = {}): KeyringHandle {
  let seen = signature(file);
  const first = loadKeyringFile(file);
  for (const warning of first.warnings) hooks.onWarning?.(warning);
  let current: LocalKeyring = first.keyring;

  const poll = (): void => {
    const now = signature(file);
    if (now === seen) return;
    seen = now;
    try {
      const loaded = loadKeyringFile(file);
      for (const warning of loaded.warnings) hooks.onWarning?.(warning);
      current = loaded.keyring;
      hooks.onChange?.({ currentVersion: current.currentVersion, versions: current.versions });
    } catch (err) {
      hooks.onError?.(asKeyringError(err));
    }
  };
  const timer = setInterval(poll, hooks.intervalMs ?? DEFAULT_KEYRING_POLL_MS);
  // The poll alone never keeps a process alive.
  timer.unref();
  return {
    keys: new Delegating(() => current),
    close: async () => clearInterval(timer),
  };
}

/** The two variables of @svc/config's vaultKeyringEnv. */
export interface KeyringEnv {
  VAULT_KEYRING?: string | undefined;
  VAULT_KEYRING_FILE?: string | undefined;
}

/**
 * The keyring the environment names: exactly one of VAULT_KEYRING (inline JSON, fixed for the
 * process's life) and VAULT_KEYRING_FILE (watched). Throws KeyringError naming the variable.
 */
export function keyringFromEnv(env: KeyringEnv, hooks: KeyringHooks = {}): KeyringHandle {
  const inline = env.VAULT_KEYRING?.trim() ?? '';
  const file = env.VAULT_KEYRING_FILE?.trim() ?? '';
  if (inline !== '' && file !== '') {
    throw new KeyringError('set only one of VAULT_KEYRING and VAULT_KEYRING_FILE');
  }
  if (file !== '') return watchKeyringFile(file, hooks);
  if (inline !== '') {
    const keyring = LocalKeyring.fromJson(inline, 'VAULT_KEYRING');
    return { keys: keyring, close: async () => undefined };
  }
  throw new KeyringError(
    'required: VAULT_KEYRING_FILE (path to the keyring JSON) or VAULT_KEYRING (the JSON itself); ' +
      '`pnpm start` makes <DATA_DIR>/vault-keyring.json',
  );
}
