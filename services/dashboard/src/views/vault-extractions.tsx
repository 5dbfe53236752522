import type { ExtractionCandidate, VaultExtraction } from '@svc/contracts';
import { CsrfForm, Table, Time } from './components';
import { fieldTypeLabel } from './vault-fields';
import { VaultNav } from './vault-nav';

export function extractionHref(extractionId: string): string {
  return `/dashboard/vault/extractions/${encodeURIComponent(extractionId)}`;
}

function pendingCount(extraction: VaultExtraction): number {
  return extraction.candidates.filter((candidate) => candidate.status === 'pending').length;
}

/** GET /dashboard/vault/extractions: newest first. */
export function ExtractionsList(props: { readonly extractions: readonly VaultExtraction[] }) {
  return (
    <>
      <VaultNav active="extractions" />
      <Table
        testId="extractions-table"
        columns={['Extraction', 'Status', 'Candidates', 'Pending', 'Created', 'Expires']}
        rowCount={props.extractions.length}
        empty="No extraction. Create one through the API (POST /api/vault/extractions)."
      >
        {props.extractions.map((extraction) => (
          <tr
            key={extraction.extraction_id}
            data-testid="extraction-row"
            data-extraction-id={extraction.extraction_id}
          >
            <td>
              <a href={extractionHref(extraction.extraction_id)}>
                <code>{extraction.extraction_id.slice(0, 8)}</code>
              </a>
            </td>
            <td>{extraction.status}</td>
            <td>{extraction.candidates.length}</td>
            <td>{pendingCount(extraction)}</td>
            <td>
              <Time at={extraction.created_at} />
            </td>
            <td>
              <Time at={extraction.expires_at} />
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

const DECISIONS = [
  { value: 'approve', label: 'Approve' },
  { value: 'correct', label: 'Approve corrected' },
  { value: 'reject', label: 'Reject' },
] as const;

function Candidate(props: { readonly candidate: ExtractionCandidate }) {
  const { candidate } = props;
  const id = candidate.candidate_id;
  const pending = candidate.status === 'pending';
  return (
    <fieldset class="candidate" data-testid="candidate" data-candidate-id={id} data-status={candidate.status}>
      <legend>
        <code>{candidate.field_name}</code> ({fieldTypeLabel(candidate.type)})
      </legend>
      <p>
        <span data-testid="candidate-mask">{candidate.masked_value}</span>{' '}
        <span class="muted">
          page {candidate.page}, confidence {Math.round(candidate.confidence * 100)} %
        </span>
      </p>
      {pending ? (
        <>
          <div class="choices">
            {DECISIONS.map((decision) => (
              <label key={decision.value}>
                <input type="radio" name={`decision.${id}`} value={decision.value} /> {decision.label}
              </label>
            ))}
          </div>
          <label>
            Save as field
            <input type="text" name={`field_name.${id}`} value={candidate.field_name} maxLength={64} />
          </label>
          <label>
            Corrected value (with "Approve corrected")
            <input type="text" name={`value.${id}`} autoComplete="off" />
          </label>
        </>
      ) : (
        <p data-testid="candidate-status">
          {candidate.status}
          {candidate.saved_as === undefined
            ? null
            : ` as ${candidate.saved_as.name} (version ${candidate.saved_as.version})`}
        </p>
      )}
    </fieldset>
  );
}

export interface ExtractionReviewProps {
  readonly extraction: VaultExtraction;
  readonly csrfToken: string;
  readonly error?: string;
}

/** GET /dashboard/vault/extractions/:id: every candidate; pending ones get a decision. */
export function ExtractionReview(props: ExtractionReviewProps) {
  const { extraction } = props;
  const open = extraction.status === 'pending' && pendingCount(extraction) > 0;
  return (
    <>
      <VaultNav active="extractions" />
      <p>
        Extraction <code>{extraction.extraction_id}</code>: {extraction.status}, {extraction.document.pages}{' '}
        page(s) of {extraction.document.content_type}; pending candidates are destroyed at{' '}
        <Time at={extraction.expires_at} />.
      </p>
      {props.error === undefined ? null : (
        <p class="form-error" role="alert" data-testid="form-error">
          {props.error}
        </p>
      )}
      <CsrfForm
        action={`${extractionHref(extraction.extraction_id)}/review`}
        csrfToken={props.csrfToken}
        class="stacked"
      >
        <input type="hidden" name="expected_version" value={String(extraction.version)} />
        {extraction.candidates.length === 0 ? <p class="empty">No candidate was found.</p> : null}
        {extraction.candidates.map((candidate) => (
          <Candidate key={candidate.candidate_id} candidate={candidate} />
        ))}
        {open ? (
          <button type="submit" data-testid="review-submit">
            Apply decisions
          </button>
        ) : null}
      </CsrfForm>
    </>
  );
}
