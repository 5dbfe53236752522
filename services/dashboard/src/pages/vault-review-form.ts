import { CandidateDecision, type VaultExtraction, type VaultField } from '@svc/contracts';
import { formText } from './vault-kit';

export type ReviewForm = { readonly decisions: CandidateDecision[] } | { readonly error: string };

/**
 * The review screen's form → the vault's decisions. Per pending candidate: `decision.<id>`
 * (approve | correct | reject, none: left for later), `field_name.<id>` (save under another name)
 * and `value.<id>` (the corrected value, required with `correct`). An approval whose target field
 * exists carries that field's current version (the vault refuses it otherwise: 409).
 */
export function reviewDecisions(
  body: unknown,
  extraction: VaultExtraction,
  fields: readonly VaultField[],
): ReviewForm {
  const versions = new Map(fields.map((field) => [field.name, field.version]));
  const decisions: CandidateDecision[] = [];
  for (const candidate of extraction.candidates) {
    if (candidate.status !== 'pending') continue;
    const id = candidate.candidate_id;
    const decision = formText(body, `decision.${id}`);
    if (decision === '') continue;
    if (decision === 'reject') {
      decisions.push({ candidate_id: id, action: 'reject' });
      continue;
    }
    if (decision !== 'approve' && decision !== 'correct') {
      return { error: `Choose approve, correct or reject for ${candidate.field_name}.` };
    }
    const name = formText(body, `field_name.${id}`).trim() || candidate.field_name;
    const value = formText(body, `value.${id}`);
    if (decision === 'correct' && value === '') {
      return { error: `Type the corrected value of ${candidate.field_name}, or choose "Approve".` };
    }
    const version = versions.get(name);
    const parsed = CandidateDecision.safeParse({
      candidate_id: id,
      action: 'approve',
      ...(name === candidate.field_name ? {} : { field_name: name }),
      ...(decision === 'correct' ? { value } : {}),
      ...(version === undefined ? {} : { field_version: version }),
    });
    if (!parsed.success) {
      const problem = parsed.error.issues[0];
      return {
        error: `${candidate.field_name}: ${problem?.path.join('.') ?? ''} ${problem?.message ?? 'is not valid'}`,
      };
    }
    decisions.push(parsed.data);
  }
  if (decisions.length === 0) return { error: 'Choose a decision for at least one candidate.' };
  return { decisions };
}
