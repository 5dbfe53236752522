import type { VaultExtraction } from '@svc/contracts';
import type { PageContext, PageModule } from '../page-kit';
import { ExtractionReview, ExtractionsList, extractionHref } from '../views/vault-extractions';
import { formRefusal, formText, requestIdOf, uuidParam } from './vault-kit';
import { reviewDecisions } from './vault-review-form';

const LIST_LIMIT = 100;

function showReview(
  ctx: PageContext,
  extraction: VaultExtraction,
  error?: { status: number; message: string },
) {
  ctx.render({
    title: 'Review an extraction',
    active: 'vault',
    status: error?.status,
    body: <ExtractionReview extraction={extraction} csrfToken={ctx.csrfToken} error={error?.message} />,
  });
}

/**
 * Extractions (issue 18), owner only: GET /vault/extractions, GET /vault/extractions/:id (the review
 * screen), POST /vault/extractions/:id/review. Another client's extraction is the vault's 404.
 */
export const vaultReviewPages: PageModule = (kit) => {
  const { vault } = kit.deps;

  kit.get('/vault/extractions', 'vault', async (ctx) => {
    const { extractions } = await vault.listExtractions({
      client_id: ctx.account.clientId,
      query: { limit: LIST_LIMIT },
    });
    ctx.render({
      title: 'Extractions',
      active: 'vault',
      body: <ExtractionsList extractions={extractions} />,
    });
  });

  kit.get('/vault/extractions/:id', 'vault', async (ctx) => {
    const extraction_id = uuidParam(ctx.req.params.id);
    const { extraction } = await vault.getExtraction({ client_id: ctx.account.clientId, extraction_id });
    showReview(ctx, extraction);
  });

  kit.post('/vault/extractions/:id/review', 'vault', async (ctx) => {
    const clientId = ctx.account.clientId;
    const extraction_id = uuidParam(ctx.req.params.id);
    const [{ extraction }, { fields }] = await Promise.all([
      vault.getExtraction({ client_id: clientId, extraction_id }),
      vault.listFields({ client_id: clientId }),
    ]);
    const form = reviewDecisions(ctx.req.body, extraction, fields);
    if ('error' in form) return showReview(ctx, extraction, { status: 422, message: form.error });
    const expected = Number(formText(ctx.req.body, 'expected_version'));
    try {
      const answer = await vault.reviewExtraction({
        client_id: clientId,
        request_id: requestIdOf(ctx),
        extraction_id,
        review: {
          expected_version: Number.isInteger(expected) && expected >= 1 ? expected : extraction.version,
          decisions: form.decisions,
        },
      });
      const rejected = form.decisions.filter((decision) => decision.action === 'reject').length;
      ctx.redirect(
        extractionHref(extraction_id),
        `Review applied: ${answer.saved_fields.length} field(s) saved, ${rejected} candidate(s) rejected.`,
      );
    } catch (err) {
      const refusal = formRefusal(err);
      if (refusal === null) throw err;
      const fresh = await vault.getExtraction({ client_id: clientId, extraction_id });
      showReview(ctx, fresh.extraction, refusal);
    }
  });
};
