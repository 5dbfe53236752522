import { SaveVaultFieldRequest, VaultAuditQuery, VaultFieldNameParams } from '@svc/contracts';
import { type PageContext, PageError, type PageKit, type PageModule } from '../page-kit';
import { NOT_FOUND_TEXT } from '../render';
import { VaultAudit } from '../views/vault-audit';
import { VaultFields } from '../views/vault-fields';
import { formRefusal, formText, requestIdOf } from './vault-kit';

const AUDIT_PAGE = 50;

function expectedVersion(body: unknown): number | undefined {
  const text = formText(body, 'expected_version');
  return text === '' ? undefined : Number(text);
}

async function showFields(kit: PageKit, ctx: PageContext, error?: { status: number; message: string }) {
  const { fields } = await kit.deps.vault.listFields({ client_id: ctx.account.clientId });
  ctx.render({
    title: 'Vault',
    active: 'vault',
    status: error?.status,
    body: <VaultFields fields={fields} csrfToken={ctx.csrfToken} error={error?.message} />,
  });
}

/**
 * Vault fields and audit trail (issue 18), owner only (`vault`): GET /vault (masked values), POST
 * /vault/fields (create, or update at `expected_version`), POST /vault/fields/:name/delete, GET
 * /vault/audit. The value typed in is sent to the vault once and never shown back, logged or kept.
 */
export const vaultPages: PageModule = (kit) => {
  const { vault } = kit.deps;

  kit.get('/vault', 'vault', (ctx) => showFields(kit, ctx));

  kit.post('/vault/fields', 'vault', async (ctx) => {
    const body: unknown = ctx.req.body;
    const parsed = SaveVaultFieldRequest.safeParse({
      name: formText(body, 'name').trim(),
      type: formText(body, 'type'),
      value: formText(body, 'value'),
      expected_version: expectedVersion(body),
    });
    if (!parsed.success) {
      const problem = parsed.error.issues[0];
      const where = problem?.path.join('.') || 'the form';
      // zod's message names the rule, never the value typed.
      return showFields(kit, ctx, {
        status: 422,
        message: `${where}: ${problem?.message ?? 'is not valid'}`,
      });
    }
    try {
      const saved = await vault.saveField({
        client_id: ctx.account.clientId,
        request_id: requestIdOf(ctx),
        field: parsed.data,
      });
      ctx.redirect(
        '/dashboard/vault',
        `Field ${saved.field.name} ${saved.outcome} (version ${saved.field.version}).`,
      );
    } catch (err) {
      const refusal = formRefusal(err);
      if (refusal === null) throw err;
      await showFields(kit, ctx, refusal);
    }
  });

  kit.post('/vault/fields/:name/delete', 'vault', async (ctx) => {
    const params = VaultFieldNameParams.safeParse({ name: ctx.req.params.name });
    if (!params.success) throw new PageError(404, NOT_FOUND_TEXT);
    const version = expectedVersion(ctx.req.body);
    try {
      await vault.deleteField({
        client_id: ctx.account.clientId,
        request_id: requestIdOf(ctx),
        name: params.data.name,
        ...(version === undefined || !Number.isInteger(version) ? {} : { expected_version: version }),
      });
      ctx.redirect('/dashboard/vault', `Field ${params.data.name} deleted.`);
    } catch (err) {
      const refusal = formRefusal(err);
      if (refusal === null) throw err;
      await showFields(kit, ctx, refusal);
    }
  });

  kit.get('/vault/audit', 'vault', async (ctx) => {
    const cursor = typeof ctx.req.query.cursor === 'string' ? ctx.req.query.cursor : undefined;
    const query = VaultAuditQuery.safeParse({
      limit: AUDIT_PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (!query.success)
      throw new PageError(422, 'That page link is not valid: start again from the first page.');
    const page = await vault.audit({ client_id: ctx.account.clientId, query: query.data });
    const nextHref =
      page.next_cursor === undefined
        ? null
        : `/dashboard/vault/audit?cursor=${encodeURIComponent(page.next_cursor)}`;
    ctx.render({
      title: 'Vault audit trail',
      active: 'vault',
      body: <VaultAudit events={page.events} nextHref={nextHref} />,
    });
  });
};
