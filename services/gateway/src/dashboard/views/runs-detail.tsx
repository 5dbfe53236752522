import type { Artifact, LedgerLine, RunReceiptResponse, RunRecord, RunTimelineEvent } from '@svc/contracts';
import { CsrfForm, Money, Table, Time } from './components';
import { runHref } from './runs-list';

/** States a cancellation still changes (a finished run answers 409). */
const CANCELLABLE = new Set(['queued', 'retrying', 'running']);

export function artifactHref(runId: string, artifactId: string): string {
  return `${runHref(runId)}/artifacts/${encodeURIComponent(artifactId)}`;
}

/** Pretty JSON for a <pre>: preact escapes it like any text. */
function Json(props: { readonly value: unknown; readonly testId: string }) {
  return (
    <pre class="json" data-testid={props.testId}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}

function History(props: { readonly events: readonly RunTimelineEvent[] }) {
  return (
    <ol class="history" data-testid="run-history">
      {props.events.map((event) => (
        <li key={`${event.event}-${event.at}`} data-event={event.event}>
          <Time at={event.at} /> {event.description}
        </li>
      ))}
    </ol>
  );
}

function InputSection(props: {
  readonly run: RunRecord;
  readonly input: Readonly<Record<string, unknown>>;
  readonly receipt: RunReceiptResponse;
}) {
  const { run, receipt } = props;
  return (
    <section data-testid="run-input">
      <h2>Request</h2>
      <dl class="facts">
        <dt>Capability</dt>
        <dd>{run.slug}</dd>
        <dt>Client type</dt>
        <dd>{run.client_type}</dd>
        <dt>Quote</dt>
        <dd>{run.quote_id === null ? 'none (free)' : <code>{run.quote_id}</code>}</dd>
        <dt>Runtime</dt>
        <dd>{run.runtime}</dd>
      </dl>
      <h3>Input</h3>
      <Json value={props.input} testId="run-input-json" />
      {receipt.quote?.price_detail === undefined ? null : (
        <>
          <h3>Priced input</h3>
          <Json value={receipt.quote.price_detail} testId="run-price-detail" />
        </>
      )}
    </section>
  );
}

function Outcome(props: { readonly run: RunRecord }) {
  const { run } = props;
  if (run.error !== undefined) {
    return (
      <section class="run-error" data-testid="run-error">
        <h2>Error</h2>
        <p>
          <code>{run.error.code}</code> {run.error.message}
        </p>
      </section>
    );
  }
  if (run.result !== undefined) {
    return (
      <section data-testid="run-result">
        <h2>Result</h2>
        <Json value={run.result} testId="run-result-json" />
      </section>
    );
  }
  return null;
}

function LineRow(props: { readonly line: LedgerLine }) {
  const { line } = props;
  return (
    <tr data-testid="receipt-line" data-kind={line.kind}>
      <td>
        <Time at={line.created_at} />
      </td>
      <td>{line.kind}</td>
      <td>{line.amount_usd.startsWith('-') ? `−${line.amount_usd.slice(1)}` : line.amount_usd} USD</td>
      <td>{line.note ?? ''}</td>
    </tr>
  );
}

function Receipt(props: { readonly receipt: RunReceiptResponse }) {
  const { ledger } = props.receipt;
  return (
    <section>
      <h2>Receipt</h2>
      <p>
        Charged <Money usd={ledger.charged_usd} testId="run-charged" />, held now{' '}
        <Money usd={ledger.held_usd} />
        {ledger.settled ? '; settled.' : '; not settled yet.'}
      </p>
      <Table
        testId="receipt-lines"
        columns={['When', 'Kind', 'Amount', 'Note']}
        rowCount={ledger.lines.length}
        empty="No ledger line: this run moved no money."
      >
        {ledger.lines.map((line) => (
          <LineRow key={line.entry_id} line={line} />
        ))}
      </Table>
    </section>
  );
}

function Artifacts(props: { readonly runId: string; readonly artifacts: readonly Artifact[] }) {
  if (props.artifacts.length === 0) return <p class="empty">No artifact.</p>;
  return (
    <ul class="artifacts" data-testid="artifacts">
      {props.artifacts.map((artifact) => (
        <li key={artifact.artifact_id}>
          <a
            href={artifactHref(props.runId, artifact.artifact_id)}
            data-testid="artifact-download"
            data-artifact-id={artifact.artifact_id}
            download={artifact.name}
          >
            {artifact.name}
          </a>{' '}
          <span class="muted">
            {artifact.content_type}, {artifact.size_bytes} bytes
          </span>
        </li>
      ))}
    </ul>
  );
}

export interface RunDetailProps {
  readonly run: RunRecord;
  readonly events: readonly RunTimelineEvent[];
  /** The input as the run recorded it (orchestrator.runTimeline). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly receipt: RunReceiptResponse;
  readonly artifacts: readonly Artifact[];
  /** The role may cancel (`runs:cancel`). */
  readonly canCancel: boolean;
  readonly csrfToken: string;
}

/** GET /dashboard/runs/:runId: state, history, request, outcome, receipt, artifacts, cancel. */
export function RunDetail(props: RunDetailProps) {
  const { run } = props;
  const cancellable = props.canCancel && CANCELLABLE.has(run.status) && run.cancel_requested_at === null;
  return (
    <>
      <p>
        <a href="/dashboard/runs">← All runs</a>
      </p>
      <p>
        Run <code data-testid="run-id">{run.run_id}</code> is{' '}
        <strong data-testid="run-state" data-state={run.status}>
          {run.status}
        </strong>
        : {run.status_message}
      </p>
      {cancellable ? (
        <CsrfForm
          action={`${runHref(run.run_id)}/cancel`}
          csrfToken={props.csrfToken}
          confirm="Cancel this run? A queued run is cancelled at once and its hold released."
        >
          <button type="submit" class="danger" data-testid="run-cancel">
            Cancel run
          </button>
        </CsrfForm>
      ) : null}
      <h2>History</h2>
      <History events={props.events} />
      <InputSection run={run} input={props.input} receipt={props.receipt} />
      <Outcome run={run} />
      <Receipt receipt={props.receipt} />
      <h2>Artifacts</h2>
      <Artifacts runId={run.run_id} artifacts={props.artifacts} />
    </>
  );
}
