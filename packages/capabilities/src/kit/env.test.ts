import { z } from 'zod';
import { CAPABILITIES } from '../catalog';
import { crtEnv } from '../crt/env';
import { htmlToPdfEnv } from '../html-to-pdf/env';
import { pdfExtractTextEnv } from '../pdf-extract-text/env';
import { capabilityEnv, settingsOf } from './env';

describe('capabilityEnv', () => {
  it('merges the env fields of every capability, in catalog order', () => {
    expect(Object.keys(capabilityEnv(CAPABILITIES))).toEqual([
      ...Object.keys(crtEnv),
      ...Object.keys(htmlToPdfEnv),
      ...Object.keys(pdfExtractTextEnv),
    ]);
  });

  it('refuses a variable declared by two capabilities, naming both', () => {
    const a = { slug: 'a', env: { SHARED_MS: z.string() } };
    const b = { slug: 'b', env: { SHARED_MS: z.string() } };
    expect(() => capabilityEnv([a, b])).toThrow('env variable SHARED_MS is declared by both a and b');
  });
});

describe('settingsOf', () => {
  it('gives a capability the parsed values of its own variables only', () => {
    const capability = { slug: 'x', env: { X_URL: z.string(), X_MS: z.string() } };
    const parsed = { X_URL: 'http://x', X_MS: 5, OTHER_SECRET: 'no' };
    expect(settingsOf(capability, parsed)).toEqual({ X_URL: 'http://x', X_MS: 5 });
    expect(settingsOf({ slug: 'none' }, parsed)).toEqual({});
  });
});
