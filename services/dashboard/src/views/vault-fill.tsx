import {
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  type VaultDocument,
  type VaultField,
} from '@svc/contracts';
import { CsrfForm, Table, Time } from './components';
import { VaultNav } from './vault-nav';

/** The page of a filled document (where the fill form's redirect leads). */
export function filledDocumentHref(documentId: string): string {
  return `/dashboard/vault/documents/${encodeURIComponent(documentId)}`;
}

export function documentHref(documentId: string): string {
  return `${filledDocumentHref(documentId)}/download`;
}

export interface FillFormProps {
  readonly fields: readonly VaultField[];
  /** The client's filled documents still kept (newest first), each with its download link. */
  readonly documents: readonly VaultDocument[];
  readonly csrfToken: string;
  readonly error?: string;
}

/** GET /dashboard/vault/fill: a template file and the fields it may use (multipart). */
export function FillForm(props: FillFormProps) {
  return (
    <>
      <VaultNav active="fill" />
      {props.error === undefined ? null : (
        <p class="form-error" role="alert" data-testid="form-error">
          {props.error}
        </p>
      )}
      <CsrfForm
        action="/dashboard/vault/fill"
        csrfToken={props.csrfToken}
        enctype="multipart/form-data"
        class="stacked"
        testId="fill-form"
      >
        <label>
          Template (PDF form, text, Markdown or HTML; at most {VAULT_DOCUMENT_MAX_BYTES / (1024 * 1024)} MB)
          <input type="file" name="template" required accept={VAULT_DOCUMENT_CONTENT_TYPES.join(',')} />
        </label>
        <fieldset>
          <legend>Fields the document may use</legend>
          {props.fields.length === 0 ? <p class="empty">No field yet: add some first.</p> : null}
          {props.fields.map((field) => (
            <label key={field.name}>
              <input type="checkbox" name="fields" value={field.name} /> <code>{field.name}</code>{' '}
              <span class="muted">{field.masked_value}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" data-testid="fill-submit" disabled={props.fields.length === 0}>
          Fill the document
        </button>
      </CsrfForm>
      <h2>Filled documents</h2>
      <Table
        testId="documents-table"
        columns={['Document', 'Filled', 'Deleted at']}
        rowCount={props.documents.length}
        empty="No filled document is kept."
      >
        {props.documents.map((document) => (
          <tr key={document.document_id} data-testid="document-row" data-document-id={document.document_id}>
            <td>
              <a href={documentHref(document.document_id)} download={document.artifact.name}>
                {document.artifact.name}
              </a>
            </td>
            <td>
              <Time at={document.created_at} />
            </td>
            <td>
              <Time at={document.expires_at} />
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function NameList(props: {
  readonly label: string;
  readonly names: readonly string[];
  readonly testId: string;
}) {
  if (props.names.length === 0) return null;
  return (
    <p data-testid={props.testId}>
      {props.label}: {props.names.join(', ')}
    </p>
  );
}

/** GET /dashboard/vault/documents/:id (where a fill leads): what was filled and the download link. */
export function FilledDocument(props: { readonly document: VaultDocument }) {
  const { document } = props;
  const { report } = document;
  return (
    <>
      <VaultNav active="fill" />
      <p>
        <a
          href={documentHref(document.document_id)}
          data-testid="document-download"
          download={document.artifact.name}
        >
          Download {document.artifact.name}
        </a>{' '}
        <span class="muted">
          ({document.artifact.size_bytes} bytes; deleted at <Time at={document.expires_at} />)
        </span>
      </p>
      <NameList label="Filled" names={report.filled} testId="fill-filled" />
      <NameList label="Not a field of this vault (left empty)" names={report.unknown} testId="fill-unknown" />
      <NameList
        label="Not allowed by this fill (left empty)"
        names={report.not_allowed}
        testId="fill-not-allowed"
      />
      <NameList label="Nothing to place (left empty)" names={report.empty} testId="fill-empty" />
    </>
  );
}
