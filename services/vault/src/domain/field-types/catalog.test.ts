import { VAULT_FIELD_TYPES, VAULT_VALUE_MAX_CHARACTERS } from '@svc/contracts';
import { FIELD_TYPE_SPECS, fieldTypeDocs, normalizeFieldValue } from './index';

describe('field type catalog', () => {
  it('has one entry per contracts type, each documented', () => {
    expect(FIELD_TYPE_SPECS.map((spec) => spec.type)).toEqual([...VAULT_FIELD_TYPES]);
    for (const spec of FIELD_TYPE_SPECS) {
      expect(spec.label.length).toBeGreaterThan(0);
      // One sentence: capitalised, one final full stop.
      expect(spec.description).toMatch(/^[A-Z][\s\S]*[^.]\.$/);
      expect(spec.description.slice(0, -1)).not.toMatch(/\.\s/);
      expect(spec.examples.length).toBeGreaterThan(0);
      expect(spec.maxLength).toBeLessThanOrEqual(VAULT_VALUE_MAX_CHARACTERS);
    }
    expect(JSON.parse(JSON.stringify(fieldTypeDocs()))).toHaveLength(VAULT_FIELD_TYPES.length);
  });

  it.each(FIELD_TYPE_SPECS.map((spec) => [spec.type, spec] as const))(
    '%s: every example is accepted, and normalising its output changes nothing',
    (_type, spec) => {
      for (const example of spec.examples) {
        const first = spec.normalize(example);
        expect(first).toEqual({ ok: true, value: expect.any(String) });
        if (!first.ok) continue;
        expect(spec.normalize(first.value)).toEqual(first);
        expect(spec.mask(first.value).length).toBeGreaterThan(0);
      }
    },
  );

  describe.each(FIELD_TYPE_SPECS.map((spec) => [spec.type, spec] as const))(
    '%s: common rules',
    (type, spec) => {
      const example = spec.examples[0]!;
      const refusals: [string, string, RegExp][] = [
        ['empty', '', /^must not be empty$/],
        ['blank', ' \t\n ', /^must not be empty$/],
        ['a NUL byte', `${example}\u0000x`, /control characters/],
        ['an escape character', `\u001b[31m${example}`, /control characters/],
        ['a lone surrogate', `${example}\uD800`, /unpaired surrogates/],
        ['a bidirectional override', `\u202E${example}`, /bidirectional override/],
        [
          'one character too many',
          'a'.repeat(spec.maxLength + 1),
          new RegExp(`^must be at most ${spec.maxLength} characters$`),
        ],
      ];
      it.each(refusals)('refuses %s, with a rule that does not echo the value', (_what, value, rule) => {
        const result = normalizeFieldValue(type, value);
        expect(result).toEqual({ ok: false, rule: expect.stringMatching(rule) });
        if (!result.ok && value.trim().length > 2) expect(result.rule).not.toContain(value.trim());
      });

      it('trims surrounding whitespace', () => {
        expect(spec.normalize(`  ${example}\n`)).toEqual(spec.normalize(example));
      });
    },
  );

  it('counts length in code points, not UTF-16 units', () => {
    // 100 astral characters are 200 UTF-16 units: still within given_name's 100.
    expect(normalizeFieldValue('given_name', '𝒜'.repeat(100)).ok).toBe(true);
    expect(normalizeFieldValue('given_name', '𝒜'.repeat(101)).ok).toBe(false);
  });

  it('stores text in NFC: a decomposed accent equals the composed one', () => {
    expect(normalizeFieldValue('city', 'Sa\u0303o Paulo')).toEqual({ ok: true, value: 'São Paulo' });
  });
});
