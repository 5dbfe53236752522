import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Dashboard passwords are stored as argon2id PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$…`).
// Parameters: OWASP's password storage cheat sheet, first argon2id line (m = 19 MiB, t = 2, p = 1).
// Why these: a sign-in is rare (sessions last hours) so ~20-40 ms of one core per attempt is cheap
// for us, while 19 MiB per guess makes GPU/ASIC guessing costly; p = 1 because the gateway shares its
// cores with request handling (a higher p would take more cores per attempt, not make guesses
// harder), and memory stays modest so a burst of sign-ins (throttled anyway) cannot exhaust it.
// The parameters sit in every stored string, so raising them later only affects new hashes.
const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id: a const enum, which isolatedModules cannot read.
export const PASSWORD_HASH_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456, // KiB
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;

/** Shortest password an account may have (NIST SP 800-63B asks for at least 8; we ask 12). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest accepted: argon2 takes any length, but a megabyte "password" is only a way to burn CPU. */
export const MAX_PASSWORD_LENGTH = 256;

/** Thrown for a password outside the policy; the message says what is wrong (never the password). */
export class PasswordPolicyError extends Error {
  override readonly name = 'PasswordPolicyError';
}

/** Throws PasswordPolicyError unless the password is MIN..MAX characters long. */
export function checkPasswordPolicy(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new PasswordPolicyError(`a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new PasswordPolicyError(`a password has at most ${MAX_PASSWORD_LENGTH} characters`);
  }
}

/** The argon2id PHC string of a password (random 16-byte salt). Checks the policy first. */
export async function hashPassword(password: string): Promise<string> {
  checkPasswordPolicy(password);
  return hash(password, PASSWORD_HASH_OPTIONS);
}

// Verified against when the email is unknown (or the account disabled), so that a wrong email costs
// the same argon2 work as a wrong password and timing does not tell which emails have accounts.
// Same parameters as real hashes; its password is random per process, so nothing matches it.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hash(randomBytes(24).toString('base64url'), PASSWORD_HASH_OPTIONS);
  return dummyHash;
}

/**
 * Whether a password matches a stored hash. `stored` null (unknown email, disabled account) verifies
 * against the dummy hash and answers false, in the same time. A malformed stored value answers false.
 * Passwords over MAX_PASSWORD_LENGTH are refused after the same work.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const tooLong = password.length > MAX_PASSWORD_LENGTH;
  const target = stored ?? (await getDummyHash());
  const candidate = tooLong ? password.slice(0, MAX_PASSWORD_LENGTH) : password;
  let matches: boolean;
  try {
    matches = await verify(target, candidate);
  } catch {
    // Not a PHC string (corrupt row): do the dummy's work anyway and refuse.
    await verify(await getDummyHash(), candidate).catch(() => false);
    matches = false;
  }
  return matches && stored !== null && !tooLong;
}

/** Computes the dummy hash now (at start-up) so the first unknown-email sign-in is not faster or slower. */
export async function warmPasswordHashing(): Promise<void> {
  await getDummyHash();
}

/**
 * A generated password for the admin CLI and the development account: 20 characters of base62-ish
 * text from 15 random bytes (base64url with `-`/`_` mapped to letters: about 115 bits), nothing a
 * shell, a CLI flag parser or a double-click selection would mangle.
 */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url').replaceAll('-', 'x').replaceAll('_', 'y');
}
