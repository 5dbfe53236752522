import { VAULT_FIELD_TYPE_DOCS, VAULT_FIELD_TYPES, type VaultField } from '@svc/contracts';
import { CsrfForm, Table, Time } from './components';
import { VaultNav } from './vault-nav';

export function fieldTypeLabel(type: string): string {
  return type in VAULT_FIELD_TYPE_DOCS
    ? VAULT_FIELD_TYPE_DOCS[type as keyof typeof VAULT_FIELD_TYPE_DOCS].label
    : type;
}

function TypeOptions(props: { readonly selected?: string }) {
  return (
    <>
      {VAULT_FIELD_TYPES.map((type) => (
        <option key={type} value={type} selected={type === props.selected}>
          {fieldTypeLabel(type)}
        </option>
      ))}
    </>
  );
}

function sourceText(field: VaultField): string {
  return field.source.kind === 'entered' ? 'entered' : 'approved from an extraction';
}

/** One field: masked value, and (owner) an edit form with the version it edits, and delete. */
function FieldRow(props: { readonly field: VaultField; readonly csrfToken: string }) {
  const { field, csrfToken } = props;
  const path = `/dashboard/vault/fields/${encodeURIComponent(field.name)}`;
  return (
    <tr data-testid="field-row" data-field-name={field.name} data-version={String(field.version)}>
      <td>
        <code>{field.name}</code>
      </td>
      <td>{fieldTypeLabel(field.type)}</td>
      <td data-testid="field-mask">{field.masked_value}</td>
      <td>{field.version}</td>
      <td>
        <Time at={field.updated_at} /> <span class="muted">({sourceText(field)})</span>
      </td>
      <td>
        <details>
          <summary>Edit</summary>
          <CsrfForm action="/dashboard/vault/fields" csrfToken={csrfToken} testId="field-edit">
            <input type="hidden" name="name" value={field.name} />
            <input type="hidden" name="expected_version" value={String(field.version)} />
            <label>
              Type
              <select name="type" required>
                <TypeOptions selected={field.type} />
              </select>
            </label>
            <label>
              New value
              <input type="text" name="value" required autoComplete="off" />
            </label>
            <button type="submit" data-testid="field-save">
              Save
            </button>
          </CsrfForm>
        </details>
        <CsrfForm
          action={`${path}/delete`}
          csrfToken={csrfToken}
          class="inline"
          confirm={`Delete the field ${field.name}? Its value cannot be recovered.`}
        >
          <input type="hidden" name="expected_version" value={String(field.version)} />
          <button type="submit" class="link" data-testid="field-delete">
            Delete
          </button>
        </CsrfForm>
      </td>
    </tr>
  );
}

/** A new field's form (no expected_version: it creates, 409 when the name exists). */
export function NewFieldForm(props: { readonly csrfToken: string; readonly error?: string }) {
  return (
    <CsrfForm action="/dashboard/vault/fields" csrfToken={props.csrfToken} class="stacked" testId="field-new">
      <h2>Add a field</h2>
      {props.error === undefined ? null : (
        <p class="form-error" role="alert" data-testid="form-error">
          {props.error}
        </p>
      )}
      <label>
        Name
        <input
          type="text"
          name="name"
          required
          maxLength={64}
          pattern="[a-z][a-z0-9_]*"
          placeholder="e.g. billing_email"
        />
      </label>
      <label>
        Type
        <select name="type" required>
          <TypeOptions />
        </select>
      </label>
      <label>
        Value
        <input type="text" name="value" required autoComplete="off" />
      </label>
      <button type="submit" data-testid="field-create">
        Add
      </button>
    </CsrfForm>
  );
}

export interface VaultFieldsProps {
  readonly fields: readonly VaultField[];
  readonly csrfToken: string;
  /** A refused save, shown above the new-field form (the value is never shown back). */
  readonly error?: string;
}

/** GET /dashboard/vault: every field, masked; values are never shown in clear. */
export function VaultFields(props: VaultFieldsProps) {
  return (
    <>
      <VaultNav active="fields" />
      <p class="muted">Values are shown masked; nobody, the dashboard included, reads them back in clear.</p>
      <Table
        testId="fields-table"
        columns={['Name', 'Type', 'Value', 'Version', 'Updated', '']}
        rowCount={props.fields.length}
        empty="No field yet."
      >
        {props.fields.map((field) => (
          <FieldRow key={field.name} field={field} csrfToken={props.csrfToken} />
        ))}
      </Table>
      <NewFieldForm csrfToken={props.csrfToken} error={props.error} />
    </>
  );
}
