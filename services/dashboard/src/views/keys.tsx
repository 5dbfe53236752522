import { type ClientApiKey, SCOPE_DOCS, type Scope } from '@svc/contracts';
import { CopyButton, CsrfForm, Table, Time } from './components';

/** What a key looks like in lists: its public prefix (the secret part is never known again). */
export function keyPrefix(keyId: string): string {
  return `svc_live_${keyId}_…`;
}

export interface KeyFormValues {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expiresAt: string;
}

export const EMPTY_KEY_FORM: KeyFormValues = { name: '', scopes: [], expiresAt: '' };

export function KeyForm(props: {
  readonly csrfToken: string;
  readonly offered: readonly Scope[];
  readonly values: KeyFormValues;
  readonly errors: readonly string[];
  /** YYYY-MM-DD: the earliest expiry date (tomorrow, UTC). */
  readonly minDate: string;
}) {
  return (
    <CsrfForm action="/dashboard/keys" csrfToken={props.csrfToken} testId="key-form">
      {props.errors.length === 0 ? null : (
        <ul class="form-error" role="alert" data-testid="key-form-errors">
          {props.errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
      <label>
        Name
        <input
          type="text"
          name="name"
          value={props.values.name}
          required
          maxLength={200}
          placeholder="ci-deploy"
        />
      </label>
      <fieldset>
        <legend>Scopes: what the key may do</legend>
        {props.offered.map((scope) => (
          <label key={scope}>
            <input
              type="checkbox"
              name="scopes"
              value={scope}
              checked={props.values.scopes.includes(scope)}
            />
            <code>{scope}</code>
            <span class="hint">{SCOPE_DOCS[scope]}</span>
          </label>
        ))}
      </fieldset>
      <label>
        Expires on (optional, UTC; the key stops working at 00:00 that day)
        <input type="date" name="expires_at" value={props.values.expiresAt} min={props.minDate} />
      </label>
      <button type="submit" data-testid="create-key">
        Create key
      </button>
    </CsrfForm>
  );
}

export function KeyList(props: { readonly keys: readonly ClientApiKey[]; readonly now: number }) {
  const active = props.keys.filter((key) => key.revoked_at === null);
  return (
    <Table
      testId="key-table"
      columns={['Name', 'Key', 'Scopes', 'Created', 'Last used', 'Expires', '']}
      rowCount={active.length}
      empty="No API keys yet."
    >
      {active.map((key) => {
        const expired = key.expires_at !== null && Date.parse(key.expires_at) <= props.now;
        return (
          <tr key={key.key_id} data-testid="key-row" data-key-id={key.key_id}>
            <td>{key.label ?? '—'}</td>
            <td data-testid="key-prefix">
              <code>{keyPrefix(key.key_id)}</code>
            </td>
            <td data-testid="key-scopes">{key.scopes.join(', ')}</td>
            <td>
              <Time at={key.created_at} testId="key-created" />
            </td>
            <td>
              <Time at={key.last_used_at} never="never" testId="key-last-used" />
            </td>
            <td>
              <Time at={key.expires_at} never="never" testId="key-expires" />
              {expired ? <span class="warning"> (expired)</span> : null}
            </td>
            <td>
              <a href={`/dashboard/keys/${key.key_id}/revoke`} data-testid="key-revoke">
                Revoke
              </a>
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** The answer to a create: the whole key, this once. */
export function NewKey(props: {
  readonly apiKey: string;
  readonly name: string;
  readonly scopes: readonly string[];
}) {
  return (
    <section>
      <p>
        Your new key <strong>{props.name}</strong> ({props.scopes.join(', ')}):
      </p>
      <code id="new-api-key" class="secret" data-testid="new-api-key">
        {props.apiKey}
      </code>
      <p class="actions">
        <CopyButton target="new-api-key" label="Copy key" />
        <a href="/dashboard/keys">Done</a>
      </p>
      <p class="warning">
        Copy it now: it is shown only this once. We keep only a hash of it; if you lose it, revoke it and
        create another.
      </p>
    </section>
  );
}

export function RevokeConfirm(props: { readonly csrfToken: string; readonly target: ClientApiKey }) {
  const key = props.target;
  return (
    <section>
      <p>
        Revoke <strong>{key.label ?? keyPrefix(key.key_id)}</strong> (<code>{keyPrefix(key.key_id)}</code>,
        scopes {key.scopes.join(', ')})? Every request with it is refused from then on; this cannot be undone.
      </p>
      <CsrfForm action={`/dashboard/keys/${key.key_id}/revoke`} csrfToken={props.csrfToken} class="actions">
        <button type="submit" class="danger" data-testid="revoke-confirm">
          Revoke key
        </button>
        <a href="/dashboard/keys">Keep it</a>
      </CsrfForm>
    </section>
  );
}
