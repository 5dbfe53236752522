import type { Quote as QuoteRow } from '@svc/db';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { checkNotExpired, checkQuote, type HoldRequest } from './holds';

const CLIENT = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';
const QUOTE_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
const HASH = 'a'.repeat(64);

const quote: QuoteRow = {
  id: QUOTE_ID,
  clientId: CLIENT,
  slug: 'pii-redact',
  priceMicros: 2_000n,
  inputHash: HASH,
  cleared: true,
  clearance: 'remaining 1.00 USD covers the price 0.002 USD',
  detail: null,
  createdAt: new Date('2026-09-15T12:00:00.000Z'),
  expiresAt: new Date('2026-09-15T12:15:00.000Z'),
};
const request: HoldRequest = {
  clientId: CLIENT,
  runId: QUOTE_ID,
  quoteId: QUOTE_ID,
  slug: 'pii-redact',
  inputHash: HASH,
};

function thrown(attempt: () => void): unknown {
  try {
    attempt();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('checkQuote', () => {
  it('accepts this client’s quote for this capability and input', () => {
    expect(() => checkQuote(quote, request)).not.toThrow();
  });

  it('answers a missing quote and another client’s with the same 404', () => {
    const missing = thrown(() => checkQuote(null, request));
    const foreign = thrown(() =>
      checkQuote({ ...quote, clientId: '0b9d7c1e-8a53-4c4e-9d0a-2f6f1f4f6a11' }, request),
    );
    for (const err of [missing, foreign]) {
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err).toMatchObject({ status: 404, message: `unknown quote_id: ${QUOTE_ID}` });
    }
  });

  it('names both capabilities when the quote was for another one (422)', () => {
    const err = thrown(() => checkQuote(quote, { ...request, slug: 'html-to-pdf' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      message: `quote_id ${QUOTE_ID} was issued for capability pii-redact, not html-to-pdf`,
    });
  });

  it('asks for a new quote when the input differs (422)', () => {
    const err = thrown(() => checkQuote(quote, { ...request, inputHash: 'b'.repeat(64) }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      message: `quote_id ${QUOTE_ID} was issued for a different input; quote this input again`,
    });
  });
});

describe('checkNotExpired', () => {
  it('accepts a quote until the instant before expires_at', () => {
    expect(() => checkNotExpired(quote, new Date('2026-09-15T12:14:59.999Z'))).not.toThrow();
  });

  it('answers 409 with the expiry from expires_at on', () => {
    for (const now of ['2026-09-15T12:15:00.000Z', '2026-09-16T00:00:00.000Z']) {
      const err = thrown(() => checkNotExpired(quote, new Date(now)));
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({
        status: 409,
        message: `quote_id ${QUOTE_ID} expired at 2026-09-15T12:15:00.000Z; quote again`,
      });
    }
  });
});
