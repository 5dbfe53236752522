import { randomUUID } from 'node:crypto';
import type { VaultAuditEvent } from '@svc/contracts';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { RunDetail } from '../src/views/runs-detail';
import { NO_RUN_FILTERS, RunsList } from '../src/views/runs-list';
import { VaultAudit } from '../src/views/vault-audit';
import { ExtractionReview } from '../src/views/vault-extractions';
import { FilledDocument } from '../src/views/vault-fill';
import { extraction, issuedQuote, ledgerReceipt, runRecord } from './view-records';

/** The runs and vault views as pure components: what each state shows, and text always escaped. */

const HOSTILE = '<script>alert(1)</script>';

function failedRun() {
  const runId = randomUUID();
  const run = runRecord({
    run_id: runId,
    status: 'failed',
    slug: 'crt',
    price_usd: '0.1',
    error: { code: 'provider_unavailable', message: HOSTILE },
  });
  return { run, receipt: ledgerReceipt(run, issuedQuote(runId, 'crt', '0.1')) };
}

/** The run page's detail view of `run` with a crt input of HOSTILE, no events or artifacts. */
function renderRunDetail(
  run: Parameters<typeof RunDetail>[0]['run'],
  receipt: Parameters<typeof RunDetail>[0]['receipt'],
  canCancel: boolean,
): string {
  return renderToString(
    h(RunDetail, {
      run,
      events: [],
      input: { apex: HOSTILE },
      receipt,
      artifacts: [],
      canCancel,
      csrfToken: 'tok',
    }),
  );
}

describe('runs views', () => {
  it('shows the error (escaped) instead of a result, the release line, and no cancel once finished', () => {
    const { run, receipt } = failedRun();
    const html = renderRunDetail(run, receipt, true);
    expect(html).toContain('data-testid="run-error"');
    expect(html).not.toContain('data-testid="run-result"');
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html.split('data-testid="receipt-line"')).toHaveLength(3); // hold and release
    expect(html).not.toContain('data-testid="run-cancel"');
  });

  it('offers cancel for a queued run in a form carrying the CSRF token', () => {
    const runId = randomUUID();
    const run = runRecord({ run_id: runId, status: 'queued', slug: 'html-to-pdf' });
    const receipt = ledgerReceipt(run, issuedQuote(runId, 'html-to-pdf'));
    const html = renderRunDetail(run, receipt, true);
    expect(html).toContain(`action="/dashboard/runs/${runId}/cancel"`);
    expect(html).toContain('name="_csrf" value="tok"');
    expect(html).toContain('data-testid="run-cancel"');
    const readOnly = renderRunDetail(run, receipt, false);
    expect(readOnly).not.toContain('data-testid="run-cancel"');
  });

  it('keeps the chosen filters in the form and says when nothing matches them', () => {
    const html = renderToString(
      h(RunsList, {
        runs: [],
        filters: { ...NO_RUN_FILTERS, state: 'failed', capability: HOSTILE },
        capabilities: [],
        nextHref: null,
      }),
    );
    expect(html).toContain('<option value="failed" selected>');
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('No run matches these filters.');
    expect(html).not.toContain('data-testid="next-page"');
  });
});

describe('vault views', () => {
  it('gives decisions to pending candidates only, and no submit once nothing is pending', () => {
    const pending = {
      candidate_id: randomUUID(),
      field_name: 'email',
      type: 'email' as const,
      masked_value: 'j***@example.com',
      confidence: 0.5,
      page: 1,
      span: { start: 0, end: 1 },
      status: 'pending' as const,
    };
    const approved = {
      ...pending,
      candidate_id: randomUUID(),
      status: 'approved' as const,
      saved_as: { name: 'email', version: 2 },
    };
    const open = renderToString(
      h(ExtractionReview, {
        extraction: { ...extraction(), candidates: [pending, approved] },
        csrfToken: 't',
      }),
    );
    expect(open).toContain(`name="decision.${pending.candidate_id}" value="approve"`);
    expect(open).not.toContain(`name="decision.${approved.candidate_id}"`);
    expect(open).toContain('approved as email (version 2)');
    expect(open).toContain('data-testid="review-submit"');
    const done = renderToString(
      h(ExtractionReview, {
        extraction: { ...extraction(), status: 'reviewed', candidates: [approved] },
        csrfToken: 't',
      }),
    );
    expect(done).not.toContain('data-testid="review-submit"');
  });

  it("reports what a fill left empty and links the document's download", () => {
    const documentId = randomUUID();
    const html = renderToString(
      h(FilledDocument, {
        document: {
          document_id: documentId,
          created_at: '2026-11-27T10:00:00.000Z',
          expires_at: '2026-11-28T10:00:00.000Z',
          report: { filled: ['email'], unknown: ['shoe_size'], not_allowed: ['iban'], empty: [] },
          artifact: {
            artifact_id: randomUUID(),
            run_id: documentId,
            name: 'letter.txt',
            content_type: 'text/plain',
            size_bytes: 12,
            sha256: 'a'.repeat(64),
            created_at: '2026-11-27T10:00:00.000Z',
            download_url: 'http://x/api/artifacts/y/download',
            download_expires_at: '2026-11-27T10:15:00.000Z',
          },
        },
      }),
    );
    expect(html).toContain(
      `href="/dashboard/vault/documents/${documentId}/download" data-testid="document-download"`,
    );
    expect(html).toContain('data-testid="fill-unknown"');
    expect(html).toContain('shoe_size');
    expect(html).toContain('data-testid="fill-not-allowed"');
    expect(html).not.toContain('data-testid="fill-empty"');
    expect(html).not.toContain('http://x/api/artifacts'); // the API link needs a key: never shown
  });

  it('lists audit events with a next page link', () => {
    const event: VaultAuditEvent = {
      event_id: '42',
      at: '2026-11-27T10:00:00.000Z',
      purpose: 'fill',
      field: 'email',
      key_version: 1,
      subject_id: randomUUID(),
      request_id: 'req-1',
    };
    const html = renderToString(
      h(VaultAudit, { events: [event], nextHref: '/dashboard/vault/audit?cursor=42' }),
    );
    expect(html).toContain('data-testid="audit-table"');
    expect(html).toContain('filled a document');
    expect(html).toContain('href="/dashboard/vault/audit?cursor=42"');
  });
});
