import { ConflictError, ValidationError } from '@svc/errors';
import { FREE_CLEARANCE_REASON } from './clearance';
import { type QuoteRequest, sameQuoteOrThrow } from './quotes';

const USD = 1_000_000n;
const CLIENT = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';
const OTHER_CLIENT = '0b9d7c1e-8a53-4c4e-9d0a-2f6f1f4f6a11';
const QUOTE_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
const HASH = 'a'.repeat(64);

describe('sameQuoteOrThrow', () => {
  const stored = {
    id: QUOTE_ID,
    clientId: CLIENT,
    slug: 'crt',
    priceMicros: 0n,
    inputHash: HASH,
    cleared: true,
    clearance: FREE_CLEARANCE_REASON,
    detail: null,
    createdAt: new Date('2026-09-15T12:00:00Z'),
    expiresAt: new Date('2026-09-15T12:15:00Z'),
  };
  const request: QuoteRequest = {
    quoteId: QUOTE_ID,
    clientId: CLIENT,
    slug: 'crt',
    priceMicros: 0n,
    inputHash: HASH,
  };

  it('returns the stored quote for the same client, slug and input', () => {
    expect(sameQuoteOrThrow(stored, request)).toBe(stored);
    // The stored price wins over a retried one: a quote is a promise made once.
    expect(sameQuoteOrThrow(stored, { ...request, priceMicros: USD })).toBe(stored);
  });

  it('answers 409 when another client holds the id', () => {
    const attempt = () => sameQuoteOrThrow(stored, { ...request, clientId: OTHER_CLIENT });
    expect(attempt).toThrow(ConflictError);
    expect(attempt).toThrow(`quote_id ${QUOTE_ID} is already in use`);
  });

  it('answers 422 when the same client uses the id for another input or capability', () => {
    for (const changed of [{ inputHash: 'b'.repeat(64) }, { slug: 'dns' }]) {
      const attempt = () => sameQuoteOrThrow(stored, { ...request, ...changed });
      expect(attempt).toThrow(ValidationError);
      expect(attempt).toThrow(`quote_id ${QUOTE_ID} was issued for a different input`);
    }
  });
});
