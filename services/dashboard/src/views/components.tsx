import type { ComponentChildren } from 'preact';

/**
 * The dashboard's shared pieces (server-rendered, escaped by preact). No style attributes and no
 * inline handlers: the CSP forbids them; behaviour lives in /dashboard/assets/app.js, keyed on
 * `data-*` attributes.
 */

export interface CsrfFormProps {
  readonly action: string;
  readonly csrfToken: string;
  readonly children: ComponentChildren;
  /** `multipart/form-data` for a file upload (the route then parses with multer before the page). */
  readonly enctype?: string;
  readonly class?: string;
  /** Asks for confirmation in app.js before submitting (without JavaScript the form just submits). */
  readonly confirm?: string;
  readonly testId?: string;
}

/** A POST form carrying the session's CSRF token in the hidden `_csrf` input. */
export function CsrfForm(props: CsrfFormProps) {
  return (
    <form
      method="post"
      action={props.action}
      enctype={props.enctype}
      class={props.class}
      data-confirm={props.confirm}
      data-testid={props.testId}
    >
      <input type="hidden" name="_csrf" value={props.csrfToken} />
      {props.children}
    </form>
  );
}

/**
 * A wire amount ("12.340000", micro-USD decimals) as dollars: two decimals at least, more only when
 * they carry something ("$0.0012"), so small per-run prices do not show as $0.00.
 */
export function formatUsd(amount: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${grouped}.${trimmed}`;
}

export function Money(props: { readonly usd: string; readonly testId?: string }) {
  return (
    <span class="money" data-testid={props.testId} data-usd={props.usd}>
      {formatUsd(props.usd)}
    </span>
  );
}

/** How exact a time is shown: to the minute (lists), or to the millisecond (a run's history). */
export type TimePrecision = 'minute' | 'ms';

/**
 * "2026-11-27 03:04 UTC", or "2026-11-27 03:04:05.678 UTC" to the millisecond: every time on the
 * dashboard is UTC, as the API's periods are.
 */
export function formatUtc(at: Date | string, precision: TimePrecision = 'minute'): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return `${date
    .toISOString()
    .slice(0, precision === 'ms' ? 23 : 16)
    .replace('T', ' ')} UTC`;
}

export function Time(props: {
  readonly at: Date | string | null;
  readonly never?: string;
  readonly testId?: string;
  readonly precision?: TimePrecision;
}) {
  if (props.at === null) return <span data-testid={props.testId}>{props.never ?? '—'}</span>;
  const iso = typeof props.at === 'string' ? props.at : props.at.toISOString();
  return (
    <time dateTime={iso} data-testid={props.testId}>
      {formatUtc(iso, props.precision)}
    </time>
  );
}

/** A duration in ms as people read it: "850 ms", "1.234 s", "2 min 3.456 s", "1 h 2 min 3 s". */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1_000) return `${whole} ms`;
  if (whole < 60_000) return `${(whole / 1_000).toFixed(3)} s`;
  const minutes = Math.floor(whole / 60_000);
  if (whole < 3_600_000) return `${minutes} min ${((whole % 60_000) / 1_000).toFixed(3)} s`;
  return `${Math.floor(whole / 3_600_000)} h ${minutes % 60} min ${Math.floor((whole % 60_000) / 1_000)} s`;
}

export interface TableProps {
  readonly testId: string;
  readonly columns: readonly string[];
  /** The `<tr>` rows. */
  readonly children: ComponentChildren;
  /** Shown instead of the table when there is no row. */
  readonly empty: string;
  readonly rowCount: number;
  readonly caption?: string;
  /** Columns holding numbers or money: right-aligned, as their cells (`td class="num"`). */
  readonly numeric?: readonly string[];
}

export function Table(props: TableProps) {
  if (props.rowCount === 0) {
    return (
      <p class="empty" data-testid={`${props.testId}-empty`}>
        {props.empty}
      </p>
    );
  }
  // A wide table scrolls inside its own box, so the page never grows past a narrow screen.
  return (
    <div class="table-scroll">
      <table data-testid={props.testId}>
        {props.caption === undefined ? null : <caption>{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" key={column} class={props.numeric?.includes(column) ? 'num' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** The "next page" link of a cursor-paginated list; nothing when there is no next page. */
export function Pagination(props: { readonly nextHref: string | null }) {
  if (props.nextHref === null) return null;
  return (
    <nav class="pagination" aria-label="Pages">
      <a href={props.nextHref} data-testid="next-page" rel="next">
        Next page
      </a>
    </nav>
  );
}

/** The one-line notice left by the previous action (a redirect's flash). */
export function Flash(props: { readonly message: string | undefined }) {
  if (props.message === undefined) return null;
  return (
    <p class="flash" role="status" data-testid="flash">
      {props.message}
    </p>
  );
}

/** A copy-to-clipboard button for the element with `id` (app.js; hidden without JavaScript). */
export function CopyButton(props: { readonly target: string; readonly label?: string }) {
  return (
    <button type="button" class="copy" data-copy-target={props.target} hidden>
      {props.label ?? 'Copy'}
    </button>
  );
}
