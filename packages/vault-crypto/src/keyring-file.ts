import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KEY_BYTES } from './aes-gcm';
import { KeyringError } from './errors';
import { type KeyringDocument, LocalKeyring, listVersions, parseKeyring } from './keyring';

/**
 * The keyring as a file (VAULT_KEYRING_FILE): read with a permission check, made once, changed by
 * whole-file atomic replacement so a reader (the vault's poll) never sees half a file.
 *
 * Permissions (docs/decisions.md VC3): a file everyone can WRITE is refused, since whoever can write it
 * can add a key of their own and read every value sealed after. Group or other access short of that
 * is a warning (for the caller to log), not a refusal: readable by group or others when the file
 * belongs to this process's user (who can `chmod 600` it, as ssh asks for private keys), and
 * group-writable always. Refusing those would break the usual ways a secret reaches a process:
 * Docker Swarm (0444) and Kubernetes (0644) mount secrets owned by root that cannot be changed from
 * inside, Docker Compose bind-mounts a secret file with the host's mode (docker/compose#9648), and a
 * checkout under umask 002 (Ubuntu's default) is group-writable.
 */

export interface LoadedKeyringFile {
  keyring: LocalKeyring;
  /** What the caller should log (e.g. readable by group/others); never key material. */
  warnings: string[];
}

function describe(file: string): string {
  return `VAULT_KEYRING_FILE ${file}`;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

/** Permission warnings for `stat`, or a KeyringError for a file everyone can write. */
export function checkKeyringFileMode(file: string, stat: fs.Stats): string[] {
  // Windows has no POSIX modes (node reports 0o666): nothing meaningful to check.
  if (process.platform === 'win32') return [];
  const mode = octal(stat.mode);
  if ((stat.mode & 0o002) !== 0) {
    throw new KeyringError(`${describe(file)} is writable by everyone (mode ${mode}): run chmod 600 on it`);
  }
  const ownUid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if ((stat.mode & 0o020) !== 0) {
    return [`${describe(file)} is writable by its group (mode ${mode}): run chmod 600 on it`];
  }
  if ((stat.mode & 0o044) !== 0 && stat.uid === ownUid) {
    return [`${describe(file)} is readable by group or others (mode ${mode}): run chmod 600 on it`];
  }
  return [];
}

/** bytes: far more than thousands of key versions; anything larger is not a keyring. */
const MAX_FILE_BYTES = 1_048_576;

/** Mode and text of one and the same file (one open descriptor: a rename in between cannot mix two). */
function readText(file: string): { text: string; stat: fs.Stats } {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new KeyringError(`${describe(file)} is not a regular file`);
    if (stat.size > MAX_FILE_BYTES)
      throw new KeyringError(`${describe(file)} is larger than 1 MB: not a keyring`);
    return { text: fs.readFileSync(fd, 'utf8'), stat };
  } catch (err) {
    if (err instanceof KeyringError) throw err;
    const code = errorCode(err);
    if (code === 'ENOENT') throw new KeyringError(`${describe(file)} does not exist`);
    if (code === 'EACCES') throw new KeyringError(`${describe(file)} is not readable by this process`);
    throw new KeyringError(`${describe(file)} could not be read (${code ?? 'unknown error'})`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Reads, checks and parses the keyring file. Throws KeyringError. */
export function loadKeyringFile(file: string): LoadedKeyringFile {
  const { text, stat } = readText(file);
  const warnings = checkKeyringFileMode(file, stat);
  return { keyring: LocalKeyring.fromJson(text, describe(file)), warnings };
}

function newKey(version: number): KeyringDocument['keys'][number] {
  return { version, key: randomBytes(KEY_BYTES).toString('base64'), created_at: new Date().toISOString() };
}

function serialize(document: KeyringDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Writes `text` to a new 0600 file beside `file`, flushed to disk; returns its path. */
function writeTemporary(file: string, text: string): string {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const fd = fs.openSync(temporary, 'wx', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  // The umask can only take bits away; this also undoes an odd one that removed the owner's.
  fs.chmodSync(temporary, 0o600);
  return temporary;
}

/**
 * Makes a keyring file with version 1 (mode 0600), unless `file` exists: it is never overwritten (the
 * keys in it may be the only way to read stored values). Atomic: the file appears whole or not at all
 * (written beside it, then hard-linked into place, which fails instead of replacing). Returns whether
 * it made the file.
 */
export function createKeyringFile(file: string): { created: boolean } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file)) return { created: false };
  const temporary = writeTemporary(file, serialize({ current: 1, keys: [newKey(1)] }));
  try {
    fs.linkSync(temporary, file);
    return { created: true };
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return { created: false };
    throw err;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/** Replaces `file` with `document` atomically (rename over it), keeping mode 0600. */
function replaceKeyringFile(file: string, document: KeyringDocument): void {
  const text = serialize(document);
  // Checked before writing: a change must never leave a file the vault would refuse.
  LocalKeyring.fromJson(text, describe(file));
  const temporary = writeTemporary(file, text);
  try {
    fs.renameSync(temporary, file);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    throw err;
  }
}

/** The file's document after the same checks the vault makes (permissions included). */
function readDocument(file: string): KeyringDocument {
  const { text, stat } = readText(file);
  checkKeyringFileMode(file, stat);
  return parseKeyring(text, describe(file)).document;
}

/**
 * Adds a fresh random key as the next version (highest + 1). `makeCurrent` (default true) also seals
 * new values with it; pass false when several hosts read copies of the file: give every host the new
 * version first, then make it current (setCurrentKeyVersion), so no host meets a version it lacks.
 * Never prints or returns the key. Not safe against two concurrent writers of the same file.
 */
export function addKeyVersion(
  file: string,
  options: { makeCurrent?: boolean } = {},
): { version: number; currentVersion: number } {
  const document = readDocument(file);
  const version = Math.max(...document.keys.map((entry) => entry.version)) + 1;
  const current = options.makeCurrent === false ? document.current : version;
  replaceKeyringFile(file, { ...document, current, keys: [...document.keys, newKey(version)] });
  return { version, currentVersion: current };
}

/** Makes an existing version the one new values are sealed with. */
export function setCurrentKeyVersion(file: string, version: number): void {
  const document = readDocument(file);
  if (!document.keys.some((entry) => entry.version === version)) {
    throw new KeyringError(
      `${describe(file)}: key version ${version} is not in the keyring (${listVersions(document.keys.map((entry) => entry.version))})`,
    );
  }
  replaceKeyringFile(file, { ...document, current: version });
}

/**
 * Retires a version: values still wrapped with it can no longer be opened, so run the re-wrap first
 * (`pnpm admin vault rotate`) and check that no row uses it. The current version cannot be removed.
 */
export function removeKeyVersion(file: string, version: number): void {
  const document = readDocument(file);
  if (document.current === version) {
    throw new KeyringError(
      `${describe(file)}: key version ${version} is current; make another version current first`,
    );
  }
  if (!document.keys.some((entry) => entry.version === version)) {
    throw new KeyringError(`${describe(file)}: key version ${version} is not in the keyring`);
  }
  replaceKeyringFile(file, { ...document, keys: document.keys.filter((entry) => entry.version !== version) });
}
