import { VaultCryptoError } from './errors';

/**
 * The associated data GCM authenticates with every value and every wrapped data key. It binds a
 * ciphertext to its owner (client), its row (subject) and, for the data key, the key version: bytes
 * copied to another client's row, another field or candidate, or relabelled with another key version
 * fail to open instead of decrypting under the wrong name. The `v1` prefix lets a later format change
 * its layout without ever accepting old bytes under new rules.
 */
const PREFIX = 'svc-vault/v1';

// `|` separates the parts and `:` the pieces of a subject: neither may appear inside one, or two
// different (client, subject) pairs could spell the same AAD.
const PART = /^[^|:\s\p{Cc}]+$/u;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

function checkPart(what: string, value: string): void {
  if (!PART.test(value)) {
    throw new VaultCryptoError(
      'invalid_input',
      `${what} must be non-empty without "|", ":", whitespace or control characters`,
    );
  }
}

/** `field:<name>`: the subject of a saved vault field. */
export function fieldSubject(name: string): string {
  if (!FIELD_NAME.test(name)) {
    throw new VaultCryptoError('invalid_input', 'field name must match ^[a-z][a-z0-9_]{0,63}$');
  }
  return `field:${name}`;
}

/** `candidate:<extraction id>:<candidate id>`: the subject of a pending extraction candidate. */
export function candidateSubject(extractionId: string, candidateId: string): string {
  checkPart('extraction id', extractionId);
  checkPart('candidate id', candidateId);
  return `candidate:${extractionId}:${candidateId}`;
}

/** A subject is `<kind>:<piece>[:<piece>…]` with pieces free of separators. */
function checkSubject(subject: string): void {
  const pieces = subject.split(':');
  if (pieces.length < 2 || !pieces.every((piece) => PART.test(piece))) {
    throw new VaultCryptoError(
      'invalid_input',
      'subject must be <kind>:<id>[:<id>] without "|", whitespace or control characters',
    );
  }
}

/** `svc-vault/v1|value|client:<id>|<subject>`: AAD of a value sealed with its data key. */
export function valueAad(clientId: string, subject: string): string {
  checkPart('client id', clientId);
  checkSubject(subject);
  return `${PREFIX}|value|client:${clientId}|${subject}`;
}

/** `svc-vault/v1|dk|client:<id>|<subject>|kek:<version>`: AAD of a data key wrapped by a KEK version. */
export function dataKeyAad(clientId: string, subject: string, version: number): string {
  checkPart('client id', clientId);
  checkSubject(subject);
  return `${PREFIX}|dk|client:${clientId}|${subject}|kek:${version}`;
}
