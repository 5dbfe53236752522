import { createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import {
  candidateSubject,
  dataKeyAad,
  fieldSubject,
  LocalKeyring,
  openValue,
  parseKeyring,
  rewrap,
  sealValue,
  VaultCryptoError,
  valueAad,
} from '../src/index';
import { keyring, keyringJson } from './support';

const clientId = randomUUID();
const otherClient = randomUUID();
const subject = fieldSubject('email');
const extractionId = randomUUID();
const VALUE = 'jane.doe+vault@example.com';

/** A copy of `bytes` with one bit flipped at `index` (negative: from the end). */
function flip(bytes: Uint8Array, index: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  const at = index < 0 ? copy.length + index : index;
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

/** Runs `open` and returns the VaultCryptoError it throws. */
async function failure(open: () => Promise<unknown>): Promise<VaultCryptoError> {
  try {
    await open();
  } catch (err) {
    if (err instanceof VaultCryptoError) return err;
    throw err;
  }
  throw new Error('expected a VaultCryptoError');
}

describe('sealValue / openValue', () => {
  const kek = keyring([1]);

  it('round-trips a value, including non-Latin text and the empty string', async () => {
    for (const plaintext of [VALUE, 'Zoë Ærøskøbing 東京 🗝️', '']) {
      const sealed = await sealValue({ kek, clientId, subject, plaintext });
      expect(sealed.keyVersion).toBe(1);
      // iv 12 + tag 16 around the UTF-8 bytes; the data key (32) wrapped the same way.
      expect(sealed.ciphertext).toHaveLength(12 + Buffer.byteLength(plaintext) + 16);
      expect(sealed.wrappedKey).toHaveLength(12 + 32 + 16);
      expect(sealed.ciphertext.buffer).toBeInstanceOf(ArrayBuffer);
      expect(await openValue({ kek, clientId, subject, ...sealed })).toBe(plaintext);
    }
  });

  it('never stores the value or repeats a ciphertext: fresh data key and IV each time', async () => {
    const a = await sealValue({ kek, clientId, subject, plaintext: VALUE });
    const b = await sealValue({ kek, clientId, subject, plaintext: VALUE });
    expect(Buffer.from(a.ciphertext).equals(Buffer.from(b.ciphertext))).toBe(false);
    expect(Buffer.from(a.wrappedKey).equals(Buffer.from(b.wrappedKey))).toBe(false);
    expect(Buffer.from(a.ciphertext).includes(Buffer.from(VALUE))).toBe(false);
  });

  describe('refuses altered or misplaced bytes, naming neither key nor value', () => {
    let sealed: Awaited<ReturnType<typeof sealValue>>;
    beforeAll(async () => {
      sealed = await sealValue({ kek, clientId, subject, plaintext: VALUE });
    });

    const cases: Array<[string, () => Parameters<typeof openValue>[0]]> = [
      [
        'a flipped ciphertext byte',
        () => ({ kek, clientId, subject, ...sealed, ciphertext: flip(sealed.ciphertext, 14) }),
      ],
      [
        'a flipped IV byte',
        () => ({ kek, clientId, subject, ...sealed, ciphertext: flip(sealed.ciphertext, 0) }),
      ],
      [
        'a flipped tag byte',
        () => ({ kek, clientId, subject, ...sealed, ciphertext: flip(sealed.ciphertext, -1) }),
      ],
      [
        'a cut tag',
        () => ({ kek, clientId, subject, ...sealed, ciphertext: sealed.ciphertext.subarray(0, -4) }),
      ],
      [
        'a ciphertext shorter than iv + tag',
        () => ({ kek, clientId, subject, ...sealed, ciphertext: new Uint8Array(20) }),
      ],
      [
        'a flipped wrapped-key byte',
        () => ({ kek, clientId, subject, ...sealed, wrappedKey: flip(sealed.wrappedKey, 20) }),
      ],
      [
        'a cut wrapped-key tag',
        () => ({ kek, clientId, subject, ...sealed, wrappedKey: sealed.wrappedKey.subarray(0, -1) }),
      ],
      ['another row (other field)', () => ({ kek, clientId, subject: fieldSubject('email_2'), ...sealed })],
      [
        'another kind of row (a candidate)',
        () => ({ kek, clientId, subject: candidateSubject(extractionId, 'c1'), ...sealed }),
      ],
      ['another client', () => ({ kek, clientId: otherClient, subject, ...sealed })],
    ];

    it.each(cases)('%s', async (_name, input) => {
      const err = await failure(() => openValue(input()));
      expect(err.code).toBe('decrypt_failed');
      // Names the row asked for, so the operator can find it.
      expect(err.message).toContain(input().subject);
      expect(err.message).not.toContain(VALUE);
      expect(err.message).not.toMatch(/[A-Za-z0-9+/]{40,}/);
    });

    it('a value whose data key was swapped with another row’s (same client) does not open', async () => {
      const other = await sealValue({
        kek,
        clientId,
        subject: fieldSubject('phone'),
        plaintext: '+4915112345645',
      });
      const err = await failure(() =>
        openValue({
          kek,
          clientId,
          subject,
          ciphertext: sealed.ciphertext,
          wrappedKey: other.wrappedKey,
          keyVersion: 1,
        }),
      );
      expect(err.code).toBe('decrypt_failed');
    });
  });

  it('a wrong key version fails: unknown versions clearly, a relabelled known one as not authentic', async () => {
    const two = keyring([1, 2], 1);
    const sealed = await sealValue({ kek: two, clientId, subject, plaintext: VALUE });
    expect(sealed.keyVersion).toBe(1);
    const unknown = await failure(() => openValue({ kek: two, clientId, subject, ...sealed, keyVersion: 3 }));
    expect(unknown.code).toBe('unknown_key_version');
    expect(unknown.message).toBe('key version 3 is not in the keyring (versions 1, 2)');
    const relabelled = await failure(() =>
      openValue({ kek: two, clientId, subject, ...sealed, keyVersion: 2 }),
    );
    expect(relabelled.code).toBe('decrypt_failed');
  });

  it('refuses client ids and subjects that could spell another AAD', async () => {
    for (const input of [
      { clientId: 'a|b', subject },
      { clientId: '', subject },
      { clientId, subject: 'field:x|client:y' },
      { clientId, subject: 'nokind' },
    ]) {
      const err = await failure(() => sealValue({ kek, plaintext: VALUE, ...input }));
      expect(err.code).toBe('invalid_input');
    }
    expect(() => fieldSubject('Email')).toThrow(VaultCryptoError);
    expect(() => candidateSubject('a:b', 'c')).toThrow(VaultCryptoError);
    expect(candidateSubject('e1', 'c2')).toBe('candidate:e1:c2');
  });
});

describe('rotation: rewrap and old versions', () => {
  it('rewrap moves the data key to the current version and keeps the value readable', async () => {
    const text = keyringJson([1]);
    const v1 = LocalKeyring.fromJson(text, 'v1');
    const sealed = await sealValue({ kek: v1, clientId, subject, plaintext: VALUE });

    // Version 2 added and made current: old rows still open under 1 until re-wrapped.
    const { document } = parseKeyring(text, 'v1');
    const rotatedJson = JSON.parse(keyringJson([2])) as typeof document;
    const both = LocalKeyring.fromJson(
      JSON.stringify({ current: 2, keys: [...document.keys, ...rotatedJson.keys] }),
      'v1+v2',
    );
    expect(await openValue({ kek: both, clientId, subject, ...sealed })).toBe(VALUE);

    const moved = await rewrap({
      kek: both,
      clientId,
      subject,
      wrappedKey: sealed.wrappedKey,
      keyVersion: sealed.keyVersion,
    });
    expect(moved.keyVersion).toBe(2);
    expect(await openValue({ kek: both, clientId, subject, ciphertext: sealed.ciphertext, ...moved })).toBe(
      VALUE,
    );

    // Version 1 removed: re-wrapped rows still open, rows left on 1 fail clearly.
    const onlyTwo = LocalKeyring.fromJson(JSON.stringify({ current: 2, keys: rotatedJson.keys }), 'v2');
    expect(
      await openValue({ kek: onlyTwo, clientId, subject, ciphertext: sealed.ciphertext, ...moved }),
    ).toBe(VALUE);
    const err = await failure(() => openValue({ kek: onlyTwo, clientId, subject, ...sealed }));
    expect(err.code).toBe('unknown_key_version');
    expect(err.message).toBe('key version 1 is not in the keyring (version 2)');
  });

  it('rewrap is bound to the row: another subject or client cannot re-wrap it', async () => {
    const kek = keyring([1, 2]);
    const sealed = await sealValue({ kek, clientId, subject, plaintext: VALUE });
    const err = await failure(() =>
      rewrap({
        kek,
        clientId: otherClient,
        subject,
        wrappedKey: sealed.wrappedKey,
        keyVersion: sealed.keyVersion,
      }),
    );
    expect(err.code).toBe('decrypt_failed');
  });

  it('rewrap to an explicit version, and to a version not in the keyring', async () => {
    const kek = keyring([1, 2, 3], 3);
    const sealed = await sealValue({ kek, clientId, subject, plaintext: VALUE });
    const back = await rewrap({
      kek,
      clientId,
      subject,
      wrappedKey: sealed.wrappedKey,
      keyVersion: 3,
      toVersion: 1,
    });
    expect(back.keyVersion).toBe(1);
    expect(await openValue({ kek, clientId, subject, ciphertext: sealed.ciphertext, ...back })).toBe(VALUE);
    const err = await failure(() => rewrap({ kek, clientId, subject, ...back, toVersion: 9 }));
    expect(err.message).toBe('key version 9 is not in the keyring (versions 1, 2, 3)');
  });
});

describe('stored format (what another implementation, e.g. a KMS migration, must read)', () => {
  /** AES-256-GCM open of iv(12) | ciphertext | tag(16) with plain node:crypto. */
  function gcmOpenRaw(key: Buffer, sealed: Uint8Array, aad: string): Buffer {
    const bytes = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
  }

  it('uses the documented AAD strings and iv | ciphertext | tag layout', async () => {
    const kekBytes = randomBytes(32);
    const kek = LocalKeyring.fromJson(
      JSON.stringify({ current: 7, keys: [{ version: 7, key: kekBytes.toString('base64') }] }),
      'k',
    );
    const client = '6f1c8f0e-7a43-4c55-9a39-3c1bde1f0a11';
    expect(valueAad(client, 'field:email')).toBe(`svc-vault/v1|value|client:${client}|field:email`);
    expect(dataKeyAad(client, 'candidate:e-1:c-2', 7)).toBe(
      `svc-vault/v1|dk|client:${client}|candidate:e-1:c-2|kek:7`,
    );

    const sealed = await sealValue({ kek, clientId: client, subject: 'field:email', plaintext: VALUE });
    const dataKey = gcmOpenRaw(
      kekBytes,
      sealed.wrappedKey,
      `svc-vault/v1|dk|client:${client}|field:email|kek:7`,
    );
    expect(dataKey).toHaveLength(32);
    const value = gcmOpenRaw(dataKey, sealed.ciphertext, `svc-vault/v1|value|client:${client}|field:email`);
    expect(value.toString('utf8')).toBe(VALUE);
  });
});
