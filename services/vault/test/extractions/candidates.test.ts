import { VAULT_MAX_CANDIDATES } from '@svc/contracts';
import { checkedCandidates } from '../../src/domain/extractions/candidates';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('checkedCandidates', () => {
  test('normalised by type, masked, in document order', () => {
    const page = 'Email: jane.doe@example.com\nIBAN: DE89 3704 0044 0532 0130 00\nDate of birth: 1984-03-15';
    const found = checkedCandidates([page], NOW);
    const byName = new Map(found.map((candidate) => [candidate.fieldName, candidate]));
    expect(byName.get('iban')).toMatchObject({ type: 'iban', value: 'DE89370400440532013000', page: 1 });
    expect(byName.get('iban')?.masked).not.toContain('3704');
    expect(byName.get('email')?.masked).toBe('j***@example.com');
    const starts = found.map((candidate) => candidate.spanStart);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  test('a proposal its type refuses is dropped (a date of birth in the future)', () => {
    const found = checkedCandidates(['Date of birth: 2099-03-15'], NOW);
    expect(found.filter((candidate) => candidate.type === 'date_of_birth')).toEqual([]);
  });

  test(`at most ${VAULT_MAX_CANDIDATES}, the most confident kept, returned in document order`, () => {
    const lines: string[] = [];
    for (let i = 0; i < 150; i += 1)
      lines.push(`Email: person${i}@example.com`, `call 030 ${String(1000000 + i)}`);
    const found = checkedCandidates([lines.join('\n')], NOW);
    expect(found.length).toBeLessThanOrEqual(VAULT_MAX_CANDIDATES);
    // Every labelled e-mail (0.97) outranks the unlabelled phone numbers.
    expect(found.filter((candidate) => candidate.type === 'email')).toHaveLength(150);
    const positions = found.map((candidate) => candidate.spanStart);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
