import { FillDocumentRequest } from '@svc/contracts';
import type { PageContext, PageKit, PageModule } from '../page-kit';
import { FilledDocument, FillForm, filledDocumentHref } from '../views/vault-fill';
import { baseUrlOf, sendArtifact } from './runs-download';
import { formRefusal, requestIdOf, uuidParam } from './vault-kit';
import { readTemplate, storeTemplate } from './vault-upload';

async function showForm(kit: PageKit, ctx: PageContext, error?: { status: number; message: string }) {
  const clientId = ctx.account.clientId;
  const [{ fields }, { documents }] = await Promise.all([
    kit.deps.vault.listFields({ client_id: clientId }),
    kit.deps.vault.listDocuments({ client_id: clientId, base_url: baseUrlOf(kit, ctx) }),
  ]);
  ctx.render({
    title: 'Fill a document',
    active: 'vault',
    status: error?.status,
    body: <FillForm fields={fields} documents={documents} csrfToken={ctx.csrfToken} error={error?.message} />,
  });
}

function checkedFields(body: unknown): string[] {
  const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'fields') : undefined;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Filling a document (issue 18), owner only: GET /vault/fill (the form), POST /vault/fill
 * (multipart: the template file and the fields it may use → upload session + PUT → vault
 * fillDocument → 303 to the document's page), GET /vault/documents/:id (what was filled, the download
 * link), GET /vault/documents/:id/download (also linked from the form's list of filled documents).
 */
export const vaultFillPages: PageModule = (kit) => {
  const { vault } = kit.deps;

  kit.get('/vault/fill', 'vault', (ctx) => showForm(kit, ctx));

  kit.post(
    '/vault/fill',
    'vault',
    async (ctx) => {
      const file = ctx.req.file;
      const fields = checkedFields(ctx.req.body);
      if (file === undefined || file.size === 0)
        return showForm(kit, ctx, { status: 422, message: 'Choose a template file.' });
      if (fields.length === 0)
        return showForm(kit, ctx, { status: 422, message: 'Tick at least one field.' });
      if (!FillDocumentRequest.shape.fields.safeParse(fields).success) {
        return showForm(kit, ctx, { status: 422, message: 'Tick fields of this vault only (at most 200).' });
      }
      try {
        const upload_id = await storeTemplate(kit, ctx, file);
        const request = FillDocumentRequest.parse({ template: { upload_id }, fields });
        const { document } = await vault.fillDocument({
          client_id: ctx.account.clientId,
          request_id: requestIdOf(ctx),
          base_url: baseUrlOf(kit, ctx),
          request,
        });
        // To the document's own page (POST-redirect-GET): a reload there fills nothing again.
        ctx.redirect(filledDocumentHref(document.document_id), 'Document filled.');
      } catch (err) {
        const refusal = formRefusal(err);
        if (refusal === null) throw err;
        await showForm(kit, ctx, refusal);
      }
    },
    { multipart: readTemplate },
  );

  kit.get('/vault/documents/:id', 'vault', async (ctx) => {
    const { document } = await vault.getDocument({
      client_id: ctx.account.clientId,
      base_url: baseUrlOf(kit, ctx),
      document_id: uuidParam(ctx.req.params.id),
    });
    ctx.render({
      title: 'Filled document',
      active: 'vault',
      body: <FilledDocument document={document} />,
    });
  });

  kit.get('/vault/documents/:id/download', 'vault', async (ctx) => {
    const { document } = await vault.getDocument({
      client_id: ctx.account.clientId,
      base_url: baseUrlOf(kit, ctx),
      document_id: uuidParam(ctx.req.params.id),
    });
    await sendArtifact(kit, ctx, document.artifact);
  });
};
