import { isKeyId } from '@svc/auth';
import { SCOPES, type Scope } from '@svc/contracts';
import { z } from 'zod';
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

/** What the create action leaves for the created page, in a one-time note (one-time-notes.ts). */
const CreatedKeyNote = z.object({
  key_id: z.string(),
  api_key: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
});
type CreatedKeyNote = z.infer<typeof CreatedKeyNote>;

/** The flash of the created page opened again (a reload, the back button, another tab). */
export const SHOWN_ALREADY =
  'A new key is shown only once, and this one was shown already. It is listed below by its prefix; if nobody copied it, revoke it and create another.';

/** The flash when the note was there but its key was revoked before the page showed it. */
const REVOKED_BEFORE_SHOWN = 'The new key was revoked before it was shown. Create another.';

function createdKeyHref(noteId: string): string {
  return `/dashboard/keys/created/${encodeURIComponent(noteId)}`;
}

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
  /** The chosen scopes that are offered, in the form's order (all of them when `errors` is empty). */
  readonly scopes: Scope[];
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
  const scopes = values.scopes.filter((scope): scope is Scope =>
    (offered as readonly string[]).includes(scope),
  );
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
  return { values, errors, scopes, expiresAt };
}

async function renderKeys(
  ctx: PageContext,
  deps: DashboardDeps,
  form: { values: KeyFormValues; errors: string[] },
  status = 200,
): Promise<void> {
  const now = deps.now?.() ?? Date.now();
  const { keys } = await deps.keys.listKeys({ client_id: ctx.account.clientId });
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
    ? (await deps.keys.listKeys({ client_id: ctx.account.clientId })).keys.find(
        (k) => k.key_id === keyId && k.revoked_at === null,
      )
    : undefined;
  if (key === undefined) throw new PageError(404, NOT_FOUND_TEXT);
  return key;
}

/**
 * One of this client's keys revoked (the gateway then tells every gateway: `apikey.revoked`); false
 * when it is not this client's.
 */
async function revokeKey(ctx: PageContext, deps: DashboardDeps, keyId: string): Promise<boolean> {
  const { revoked } = await deps.keys.revokeKey({ client_id: ctx.account.clientId, key_id: keyId });
  if (revoked) {
    ctx.res.locals.log?.info({ key_id: keyId, account_id: ctx.account.id }, 'dashboard revoked an API key');
  }
  return revoked;
}

/**
 * /dashboard/keys: list, create (POST, then 303 to /keys/created/<note id>, which shows the key once),
 * revoke with a confirmation page.
 */
export const keysPages: PageModule = (kit) => {
  const { deps } = kit;
  kit.get('/keys', 'keys', (ctx) => renderKeys(ctx, deps, { values: EMPTY_KEY_FORM, errors: [] }));

  kit.post('/keys', 'keys', async (ctx) => {
    const form = parseKeyForm(ctx.req.body, offeredScopes(ctx), deps.now?.() ?? Date.now());
    if (form.errors.length > 0) return renderKeys(ctx, deps, form, 422);
    const created = await deps.keys.createKey({
      client_id: ctx.account.clientId,
      scopes: form.scopes,
      label: form.values.name,
      expires_at: form.expiresAt?.toISOString() ?? null,
    });
    ctx.res.locals.log?.info(
      { key_id: created.key_id, account_id: ctx.account.id },
      'dashboard created an API key',
    );
    const note: CreatedKeyNote = {
      key_id: created.key_id,
      api_key: created.api_key,
      name: form.values.name,
      scopes: [...form.values.scopes],
    };
    let noteId: string;
    try {
      noteId = await ctx.keepNote(note);
    } catch (err) {
      // A key nobody will ever see is no use and should not stay valid: revoked, and the person retries.
      ctx.res.locals.log?.error({ key_id: created.key_id, err }, 'new API key could not be kept to show');
      await revokeKey(ctx, deps, created.key_id);
      throw new PageError(
        503,
        'The key could not be shown, so it was revoked at once. Try again in a moment.',
      );
    }
    // POST-redirect-GET (issue 23): a reload or the back button shows the created page, never a
    // second key. The key itself travels in the one-time note, not in the URL or a cookie.
    ctx.redirect(createdKeyHref(noteId));
  });

  kit.get('/keys/created/:noteId', 'keys', async (ctx) => {
    const parsed = CreatedKeyNote.safeParse(await ctx.takeNote(String(ctx.req.params.noteId ?? '')));
    if (!parsed.success) return ctx.redirect('/dashboard/keys', SHOWN_ALREADY);
    const active = (await deps.keys.listKeys({ client_id: ctx.account.clientId })).keys.some(
      (key) => key.key_id === parsed.data.key_id && key.revoked_at === null,
    );
    if (!active) return ctx.redirect('/dashboard/keys', REVOKED_BEFORE_SHOWN);
    ctx.render({
      title: 'Key created',
      active: 'keys',
      body: <NewKey apiKey={parsed.data.api_key} name={parsed.data.name} scopes={parsed.data.scopes} />,
    });
  });

  kit.get('/keys/:keyId/revoke', 'keys', async (ctx) => {
    const key = await ownKey(ctx, deps);
    ctx.render({
      title: 'Revoke key',
      active: 'keys',
      body: <RevokeConfirm csrfToken={ctx.csrfToken} target={key} />,
    });
  });

  kit.post('/keys/:keyId/revoke', 'keys', async (ctx) => {
    const keyId = String(ctx.req.params.keyId ?? '');
    if (!isKeyId(keyId) || !(await revokeKey(ctx, deps, keyId))) throw new PageError(404, NOT_FOUND_TEXT);
    ctx.redirect(
      '/dashboard/keys',
      `Key ${keyPrefix(keyId)} revoked: requests with it are refused from now on.`,
    );
  });
};
