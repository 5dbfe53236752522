import { isKeyId } from '@svc/auth';
import { SCOPES, type Scope } from '@svc/contracts';
import { type PageContext, PageError, type PageModule } from '../page-kit';
import type { DashboardDeps } from '../ports';
import { NOT_FOUND_TEXT } from '../render';
import {
  EMPTY_KEY_FORM,
  KeyForm,
  type KeyFormValues,
  KeyList,
  keyPrefix,
  NewKey,
  RevokeConfirm,
} from '../views/keys';

const DAY_MS = 86_400_000;
// days: the furthest expiry offered (a typo such as 20260 is refused rather than kept).
const MAX_EXPIRY_DAYS = 5 * 366;

/** The scopes a role may put on a key: vault scopes only for a role that may open the vault itself. */
function offeredScopes(ctx: PageContext): Scope[] {
  return SCOPES.filter((scope) => !scope.startsWith('vault:') || ctx.can('vault'));
}

function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function list(body: unknown, name: string): string[] {
  const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

interface ParsedKeyForm {
  readonly values: KeyFormValues;
  readonly errors: string[];
  readonly expiresAt: Date | null;
}

/** The create form, checked: a name, at least one offered scope, an expiry from tomorrow on. */
export function parseKeyForm(body: unknown, offered: readonly Scope[], now: number): ParsedKeyForm {
  const values = {
    name: (list(body, 'name')[0] ?? '').trim(),
    scopes: [...new Set(list(body, 'scopes'))],
    expiresAt: (list(body, 'expires_at')[0] ?? '').trim(),
  };
  const errors: string[] = [];
  if (values.name === '' || values.name.length > 200)
    errors.push('Give the key a name of 1 to 200 characters.');
  if (values.scopes.length === 0) errors.push('Choose at least one scope.');
  const unknown = values.scopes.filter((scope) => !(offered as readonly string[]).includes(scope));
  if (unknown.length > 0) errors.push(`Not a scope you can give: ${unknown.join(', ')}.`);
  let expiresAt: Date | null = null;
  if (values.expiresAt !== '') {
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(values.expiresAt)
      ? Date.parse(`${values.expiresAt}T00:00:00Z`)
      : Number.NaN;
    const tomorrow = Date.parse(`${utcDate(now)}T00:00:00Z`) + DAY_MS;
    if (Number.isNaN(ms)) errors.push('The expiry must be a date (YYYY-MM-DD).');
    else if (ms < tomorrow) errors.push('The expiry must be tomorrow or later.');
    else if (ms > tomorrow + MAX_EXPIRY_DAYS * DAY_MS) errors.push('The expiry must be within five years.');
    else expiresAt = new Date(ms);
  }
  return { values, errors, expiresAt };
}

async function renderKeys(
  ctx: PageContext,
  deps: DashboardDeps,
  form: { values: KeyFormValues; errors: string[] },
  status = 200,
): Promise<void> {
  const now = deps.now?.() ?? Date.now();
  const keys = await deps.apiKeys.listForClient(ctx.account.clientId);
  ctx.render({
    title: 'API keys',
    active: 'keys',
    status,
    body: (
      <>
        <KeyList keys={keys} now={now} />
        <h2>Create a key</h2>
        <KeyForm
          csrfToken={ctx.csrfToken}
          offered={offeredScopes(ctx)}
          values={form.values}
          errors={form.errors}
          minDate={utcDate(now + DAY_MS)}
        />
      </>
    ),
  });
}

/** One of this client's keys that is not revoked; another client's id or a malformed one: 404. */
async function ownKey(ctx: PageContext, deps: DashboardDeps) {
  const keyId = String(ctx.req.params.keyId ?? '');
  const key = isKeyId(keyId)
    ? (await deps.apiKeys.listForClient(ctx.account.clientId)).find(
        (k) => k.keyId === keyId && k.revokedAt === null,
      )
    : undefined;
  if (key === undefined) throw new PageError(404, NOT_FOUND_TEXT);
  return key;
}

/** /dashboard/keys: list, create (shown once), revoke with a confirmation page. */
export const keysPages: PageModule = (router, kit) => {
  const { deps } = kit;
  router.get(
    '/keys',
    kit.page('keys', (ctx) => renderKeys(ctx, deps, { values: EMPTY_KEY_FORM, errors: [] })),
  );

  router.post(
    '/keys',
    kit.page('keys', async (ctx) => {
      const form = parseKeyForm(ctx.req.body, offeredScopes(ctx), deps.now?.() ?? Date.now());
      if (form.errors.length > 0) return renderKeys(ctx, deps, form, 422);
      const created = await deps.apiKeys.createForClient({
        clientId: ctx.account.clientId,
        scopes: form.values.scopes,
        label: form.values.name,
        expiresAt: form.expiresAt,
      });
      ctx.res.locals.log?.info(
        { key_id: created.keyId, account_id: ctx.account.id },
        'dashboard created an API key',
      );
      ctx.render({
        title: 'Key created',
        active: 'keys',
        status: 201,
        body: <NewKey apiKey={created.apiKey} name={form.values.name} scopes={form.values.scopes} />,
      });
    }),
  );

  router.get(
    '/keys/:keyId/revoke',
    kit.page('keys', async (ctx) => {
      const key = await ownKey(ctx, deps);
      ctx.render({
        title: 'Revoke key',
        active: 'keys',
        body: <RevokeConfirm csrfToken={ctx.csrfToken} target={key} />,
      });
    }),
  );

  router.post(
    '/keys/:keyId/revoke',
    kit.page('keys', async (ctx) => {
      const keyId = String(ctx.req.params.keyId ?? '');
      if (!isKeyId(keyId) || !(await deps.apiKeys.revokeForClient(ctx.account.clientId, keyId))) {
        throw new PageError(404, NOT_FOUND_TEXT);
      }
      ctx.res.locals.log?.info({ key_id: keyId, account_id: ctx.account.id }, 'dashboard revoked an API key');
      // Revoked in the database already; the event only shortens how long caches keep the key
      // (each gateway refuses it within API_KEY_CACHE_TTL_MS anyway), so a failed publish is logged.
      await deps.keyRevoked(keyId).catch((err: unknown) => {
        ctx.res.locals.log?.warn({ key_id: keyId, err }, 'apikey.revoked not published');
      });
      ctx.redirect(
        '/dashboard/keys',
        `Key ${keyPrefix(keyId)} revoked: requests with it are refused from now on.`,
      );
    }),
  );
};
