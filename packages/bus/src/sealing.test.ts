import { randomBytes } from 'node:crypto';
import { BusSealer, SealError, type SealedValue, sealingContext } from './sealing';

const context = sealingContext.jobData('svc', 'jobs.capability.pii-redact', 'capability.pii-redact');
const payload = { run_id: '3f1c2a4e-0b6d-4e8a-9c1f-5a7b3d2e1f00', input: { text: 'Mail jane@example.com' } };

/** The sealed string with one base64url character of part `index` (0 = version) changed. */
function altered(sealed: SealedValue, index: number): SealedValue {
  const parts = sealed.sealed.split('.');
  const part = parts[index] ?? '';
  const flipped = part.startsWith('A') ? `B${part.slice(1)}` : `A${part.slice(1)}`;
  parts[index] = flipped;
  return { sealed: parts.join('.') };
}

describe('BusSealer', () => {
  const key = randomBytes(32);
  const sealer = new BusSealer([key]);

  it('opens what it sealed, and the sealed form shows nothing of the value', () => {
    const sealed = sealer.seal(payload, context);
    expect(sealed.sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.stringify(sealed)).not.toContain('jane');
    expect(JSON.stringify(sealed)).not.toContain(payload.run_id);
    expect(sealer.open(sealed, context)).toEqual(payload);
  });

  it('uses a fresh IV for every seal: the same value never seals the same twice', () => {
    const a = sealer.seal(payload, context).sealed.split('.');
    const b = sealer.seal(payload, context).sealed.split('.');
    expect(a[2]).not.toBe(b[2]);
    expect(a[3]).not.toBe(b[3]);
  });

  it.each([
    ['the IV', 2],
    ['the ciphertext', 3],
    ['the tag', 4],
  ])('refuses a value whose %s was altered', (_what, index) => {
    const sealed = sealer.seal(payload, context);
    expect(() => sealer.open(altered(sealed, index), context)).toThrow(SealError);
  });

  it('refuses a value sealed for another queue, job name or job (associated data)', () => {
    const sealed = sealer.seal(payload, context);
    const elsewhere = [
      sealingContext.jobData('svc', 'jobs.capability.html-to-pdf', 'capability.pii-redact'),
      sealingContext.jobData('svc', 'jobs.capability.pii-redact', 'capability.html-to-pdf'),
      sealingContext.jobData('other', 'jobs.capability.pii-redact', 'capability.pii-redact'),
    ];
    for (const other of elsewhere) {
      expect(() => sealer.open(sealed, other)).toThrow(/does not authenticate/);
    }
    const reply = sealer.seal({ ok: true }, sealingContext.rpcReply('svc', 'rpc.wallet', 'balance', '41'));
    expect(() => sealer.open(reply, sealingContext.rpcReply('svc', 'rpc.wallet', 'balance', '42'))).toThrow(
      SealError,
    );
  });

  it('refuses a value sealed under another key, naming only the key id', () => {
    const other = new BusSealer([randomBytes(32)]);
    const sealed = other.seal(payload, context);
    expect(() => sealer.open(sealed, context)).toThrow(
      `sealed under an unknown key (id ${other.currentKeyId})`,
    );
  });

  it('refuses values that are not sealed (plain payloads, wrong shapes, other versions)', () => {
    for (const raw of [payload, 'text', null, { sealed: 42 }, { sealed: 'v2.a.b.c.d' }, { sealed: 'v1.x' }]) {
      expect(() => sealer.open(raw, context)).toThrow(SealError);
    }
  });

  it('rotates: a sealer holding the new key first and the old one after opens both and seals with the new', () => {
    const newKey = randomBytes(32);
    const before = sealer.seal(payload, context);
    const rotated = new BusSealer([newKey, key]);
    expect(rotated.open(before, context)).toEqual(payload);
    const after = rotated.seal(payload, context);
    expect(after.sealed.split('.')[1]).toBe(rotated.currentKeyId);
    expect(new BusSealer([newKey]).open(after, context)).toEqual(payload);
    // A process still on the old key alone cannot open what the rotated one seals: the README's
    // rotation adds the new key everywhere (second) before any process seals with it.
    expect(() => sealer.open(after, context)).toThrow(/unknown key/);
  });

  it('needs at least one key, each of 32 bytes', () => {
    expect(() => new BusSealer([])).toThrow(/at least one/);
    expect(() => new BusSealer([randomBytes(32), randomBytes(16)])).toThrow(/key 2 must be 32 bytes/);
  });
});
