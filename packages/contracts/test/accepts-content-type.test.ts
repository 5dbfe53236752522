import { acceptsContentType } from '../src';

// The one content-type rule of file requirements, shared by the uploads service (upload sessions)
// and the orchestrator (files named in a quote or run): the cases both services tested.

describe("acceptsContentType (the upload session's cases)", () => {
  it('matches exact entries and type/* wildcards only', () => {
    expect(acceptsContentType(['application/pdf'], 'application/pdf')).toBe(true);
    expect(acceptsContentType(['image/*'], 'image/png')).toBe(true);
    expect(acceptsContentType(['image/*'], 'application/png')).toBe(false);
    expect(acceptsContentType(['image/png'], 'image/jpeg')).toBe(false);
    expect(acceptsContentType([], 'image/png')).toBe(false);
  });
});

describe("acceptsContentType (the orchestrator's cases)", () => {
  it('takes the same type or a type/* entry of its top-level type, in any letter case', () => {
    expect(acceptsContentType(['application/pdf'], 'application/pdf')).toBe(true);
    expect(acceptsContentType(['image/*'], 'image/png')).toBe(true);
    expect(acceptsContentType(['image/png'], 'Image/PNG')).toBe(true);
    expect(acceptsContentType(['image/jpeg', 'image/webp'], 'image/png')).toBe(false);
    expect(acceptsContentType(['image/*'], 'text/csv')).toBe(false);
    // `*` only stands for a subtype: `image/*` does not take `imagex/png`, nor `*/*` anything here.
    expect(acceptsContentType(['image/*'], 'imagex/png')).toBe(false);
    expect(acceptsContentType([], 'application/pdf')).toBe(false);
  });
});
