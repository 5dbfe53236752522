import type { Artifact, LedgerLine, RunReceiptResponse, RunRecord, RunTimelineEvent } from '@svc/contracts';
import { CsrfForm, formatDuration, formatUsd, Money, Table, Time } from './components';
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

/**
 * The run's history to the millisecond, each event with how long the step before it took (from the
 * previous event: recorded → dispatched is the wait for the queue, started → finished the work).
 */
function History(props: { readonly events: readonly RunTimelineEvent[] }) {
  return (
    <Table
      testId="run-history"
      columns={['When', 'Step took', 'Event']}
      numeric={['Step took']}
      rowCount={props.events.length}
      empty="No event recorded yet."
    >
      {props.events.map((event, index) => {
        const previous = props.events[index - 1];
        const tookMs = previous === undefined ? null : Date.parse(event.at) - Date.parse(previous.at);
        return (
          <tr key={`${event.event}-${event.at}`} data-testid="history-event" data-event={event.event}>
            <td>
              <Time at={event.at} precision="ms" />
            </td>
            <td class="num">
              {tookMs === null ? (
                '—'
              ) : (
                <span data-testid="step-took" data-ms={tookMs}>
                  {formatDuration(tookMs)}
                </span>
              )}
            </td>
            <td>{event.description}</td>
          </tr>
        );
      })}
    </Table>
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

/** A positive wire amount, its sign dropped ("-0.001" → "0.001"). */
function magnitude(amount: string): string {
  return amount.replace(/^-/, '');
}

/**
 * A ledger line in words (decisions W3, L-D): a hold is money set aside, not spent; a capture charges
 * the price and ends the hold; a release ends the hold with nothing charged. Only captures, credits
 * and adjustments move the balance, which the last column says, so a hold and its capture do not read
 * as a double charge.
 */
function lineWords(line: LedgerLine): { entry: string; balance: string | null } {
  switch (line.kind) {
    case 'hold':
      return { entry: 'Reserved (hold): set aside until the run settles', balance: null };
    case 'capture':
      return {
        entry: 'Charged (capture): the reservation is released into the charge',
        balance: `-${magnitude(line.amount_usd)}`,
      };
    case 'release':
      return { entry: 'Released: the reservation is given back, nothing charged', balance: null };
    case 'credit':
      return { entry: 'Credit', balance: magnitude(line.amount_usd) };
    case 'adjustment':
      return { entry: 'Adjustment', balance: line.amount_usd };
  }
}

function signedUsd(amount: string): string {
  return amount.startsWith('-') ? `−${formatUsd(amount.slice(1))}` : `+${formatUsd(amount)}`;
}

function LineRow(props: { readonly line: LedgerLine }) {
  const { line } = props;
  const words = lineWords(line);
  return (
    <tr data-testid="receipt-line" data-kind={line.kind}>
      <td>
        <Time at={line.created_at} precision="ms" />
      </td>
      <td data-testid="receipt-entry">{words.entry}</td>
      <td class="num">
        <Money usd={magnitude(line.amount_usd)} testId="receipt-amount" />
      </td>
      <td class="num" data-testid="receipt-balance" data-usd={words.balance ?? '0'}>
        {words.balance === null ? <span class="muted">no change</span> : signedUsd(words.balance)}
      </td>
      <td class="muted">{line.note ?? ''}</td>
    </tr>
  );
}

function Receipt(props: { readonly receipt: RunReceiptResponse }) {
  const { ledger } = props.receipt;
  return (
    <section>
      <h2>Receipt</h2>
      <p data-testid="receipt-summary">
        Charged <Money usd={ledger.charged_usd} testId="run-charged" />; reserved now{' '}
        <Money usd={ledger.held_usd} testId="run-held" />
        {ledger.settled ? '; settled.' : '; not settled yet.'}
      </p>
      <Table
        testId="receipt-lines"
        columns={['When', 'Entry', 'Amount', 'Balance', 'Note']}
        numeric={['Amount', 'Balance']}
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

/**
 * What the status message adds to the state, as it continues "Run … is <state>": the orchestrator's
 * messages start with the state ("queued: waiting for a worker", "running (attempt 2)", "completed"),
 * so that part is not said twice ("is completed: completed"); a message that does not is appended.
 */
export function statusDetail(run: Pick<RunRecord, 'status' | 'status_message'>): string {
  const message = run.status_message.trim().replace(/\.+$/, '');
  if (message.toLowerCase().startsWith(run.status)) return message.slice(run.status.length);
  return message === '' ? '' : `: ${message}`;
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
      <p data-testid="run-summary">
        Run <code data-testid="run-id">{run.run_id}</code> is{' '}
        <strong data-testid="run-state" data-state={run.status}>
          {run.status}
        </strong>
        {statusDetail(run)}.
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
