import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
// The wire types come through the SDK, which re-exports the ones a caller handles.
import {
  type ArtifactManifestResponse,
  type BalanceResponse,
  CapabilityNotRunnableError,
  type DescribeCapabilityResponse,
  type ListCapabilitiesResponse,
  type ListRunsQueryInput,
  type ListRunsResponse,
  type RunStatusResponse,
  type SvcClient,
  type UsageStatementResponse,
} from '@svc/sdk';
import Table from 'cli-table3';
import { EXIT, type ExitCode } from './exit-codes';
import type { Output } from './output';
import { createProgress } from './progress';
import { UsageError } from './usage-error';

/** What every command gets: its output, a client, and the directory relative paths are taken from. */
export interface CommandContext {
  readonly out: Output;
  readonly client: () => SvcClient;
  readonly cwd: string;
  /** Aborted on Ctrl-C: a waiting run is cancelled on the server first. */
  readonly signal: AbortSignal;
  /** Runs a wait for a run (and the cancel that ends it on Ctrl-C) as a section SIGTERM/SIGHUP do not cut short. */
  readonly guard: <T>(body: () => Promise<T>) => Promise<T>;
}

export async function search(
  ctx: CommandContext,
  q: { q?: string; category?: string; limit?: number },
): Promise<ExitCode> {
  const answer = await ctx.client().search(q);
  ctx.out.result(answer, () => searchText(ctx.out, answer));
  return EXIT.ok;
}

function searchText(out: Output, answer: ListCapabilitiesResponse): string {
  if (answer.count === 0) return 'no capabilities match';
  const { c } = out;
  return answer.capabilities
    .map((cap) => {
      const status = cap.execution.effective_status;
      const runnable = status === 'supported' ? '' : ` ${c.yellow(`[${status}]`)}`;
      return `${c.bold(cap.slug)}  ${c.dim(cap.category)}  ${cap.pricing.description}${runnable}\n  ${cap.name}`;
    })
    .join('\n');
}

export async function describe(ctx: CommandContext, slug: string): Promise<ExitCode> {
  const answer = await ctx.client().describe(slug);
  ctx.out.result(answer, () => describeText(ctx, answer));
  return EXIT.ok;
}

function describeText(ctx: CommandContext, answer: DescribeCapabilityResponse): string {
  const { c } = ctx.out;
  const cap = answer.capability as DescribeCapabilityResponse['capability'] & {
    execution: { effective_status: string; mode: string; runtime: string };
    pricing: { description: string };
  };
  let runnable: string;
  try {
    ctx.client().assertRunnable(answer);
    runnable = c.green('can be run');
  } catch (error) {
    if (!(error instanceof CapabilityNotRunnableError)) throw error;
    runnable = c.yellow(`cannot be run: ${error.error}`);
  }
  const properties = (answer.input_schema.properties ?? {}) as Record<
    string,
    { type?: unknown; description?: unknown }
  >;
  const required = new Set((answer.input_schema.required ?? []) as string[]);
  const inputs = Object.entries(properties).map(
    ([name, schema]) =>
      `  ${name}${required.has(name) ? '' : '?'}: ${String(schema.type ?? 'any')}${schema.description ? `  ${c.dim(String(schema.description))}` : ''}`,
  );
  return [
    `${c.bold(cap.slug)} — ${cap.name}`,
    cap.description,
    `price: ${cap.pricing.description}`,
    `execution: ${cap.execution.mode} on ${cap.execution.runtime}, ${cap.execution.effective_status} (${runnable})`,
    'input:',
    ...(inputs.length > 0 ? inputs : ['  (none)']),
  ].join('\n');
}

export async function quote(
  ctx: CommandContext,
  slug: string,
  input: Record<string, unknown>,
): Promise<ExitCode> {
  const q = await ctx.client().quote(slug, input, { signal: ctx.signal });
  const clearance = q.wallet_clearance as { cleared?: boolean; reason?: string | null };
  ctx.out.result({ ok: true, quote: q }, () =>
    [
      `quote ${q.quote_id}: ${q.price_usd} ${q.currency} for ${q.slug}, valid until ${q.expires_at}`,
      clearance.cleared === false
        ? ctx.out.c.yellow(
            `not cleared: ${clearance.reason ?? 'the wallet cannot cover it'} (a run would be refused with 402)`,
          )
        : ctx.out.c.green('cleared'),
    ].join('\n'),
  );
  return EXIT.ok;
}

export interface RunFlags {
  readonly wait: boolean;
  readonly deadlineMs: number | undefined;
  readonly idempotencyKey: string | undefined;
}

/** Default overall wait of `run --wait` (the SDK's own default). */
export const DEFAULT_DEADLINE_MS = 10 * 60_000;

export async function run(
  ctx: CommandContext,
  slug: string,
  input: Record<string, unknown>,
  flags: RunFlags,
): Promise<ExitCode> {
  const client = ctx.client();
  const progress = await createProgress(ctx.out);
  if (!flags.wait) {
    // Describe (refusing describe_only), quote right before, start: spec §2.1 and §4 rule 3.
    const q = await client.quote(slug, input, { signal: ctx.signal });
    progress.event({ phase: 'quote', quote: q });
    const started = await client.startRun(slug, input, {
      quoteId: q.quote_id,
      signal: ctx.signal,
      ...(flags.idempotencyKey === undefined ? {} : { idempotencyKey: flags.idempotencyKey }),
    });
    progress.done(
      true,
      `run ${started.runId}: ${started.status} (idempotency key ${started.idempotencyKey}; \`svc status ${started.runId}\`)`,
    );
    ctx.out.result(started.body, () => started.runId);
    return EXIT.ok;
  }
  let finished: RunStatusResponse;
  try {
    finished = await ctx.guard(() =>
      client.run(slug, input, {
        deadlineMs: flags.deadlineMs ?? DEFAULT_DEADLINE_MS,
        signal: ctx.signal,
        onProgress: (event) => progress.event(event),
        ...(flags.idempotencyKey === undefined ? {} : { idempotencyKey: flags.idempotencyKey }),
      }),
    );
  } catch (error) {
    // The error itself is printed once, by the caller (`svc: …`); the display only ends here.
    progress.failed();
    throw error;
  }
  const ok = finished.status === 'completed';
  progress.done(
    ok,
    `run ${finished.run_id}: ${finished.status}${finished.error ? ` (${finishedError(finished)})` : ''}`,
  );
  ctx.out.result(finished, () => runText(ctx.out, finished));
  return ok ? EXIT.ok : EXIT.failure;
}

function finishedError(run: RunStatusResponse): string {
  const error = run.error as { code?: string; message?: string } | undefined;
  return [error?.code, error?.message].filter(Boolean).join(': ');
}

function runText(out: Output, record: RunStatusResponse): string {
  const { c } = out;
  const colour = record.status === 'completed' ? c.green : record.status === 'failed' ? c.red : c.yellow;
  const lines = [
    `run ${record.run_id} (${record.slug}): ${colour(record.status)}`,
    `  ${record.status_message}`,
    `  price ${record.price_usd} USD, attempts ${record.attempts}, created ${record.created_at}${record.finished_at ? `, finished ${record.finished_at}` : ''}`,
  ];
  if (record.cancel_requested_at) lines.push(`  cancel requested at ${record.cancel_requested_at}`);
  if (record.error) lines.push(`  error: ${finishedError(record)}`);
  if (record.result !== undefined) lines.push(`result:\n${JSON.stringify(record.result, null, 2)}`);
  return lines.join('\n');
}

export async function status(ctx: CommandContext, runId: string): Promise<ExitCode> {
  const record = await ctx.client().getRun(runId);
  ctx.out.result(record, () => runText(ctx.out, record));
  return EXIT.ok;
}

/**
 * `svc runs`: one page of the client's runs (the API's answer with --json; a hint for the next page
 * on stderr), or with `all` every page through the SDK's iterator (`{ok, runs, next_cursor: null}`).
 */
export async function runs(ctx: CommandContext, query: ListRunsQueryInput, all: boolean): Promise<ExitCode> {
  const client = ctx.client();
  let answer: ListRunsResponse;
  if (all) {
    const collected: ListRunsResponse['runs'] = [];
    for await (const run of client.iterateRuns(query, ctx.signal)) collected.push(run);
    answer = { ok: true, runs: collected, next_cursor: null };
  } else {
    answer = await client.listRuns(query, ctx.signal);
  }
  ctx.out.result(answer, () => runsText(answer));
  if (answer.next_cursor !== null && !ctx.out.json) {
    ctx.out.note(`more: svc runs --cursor ${answer.next_cursor} (with the same filters), or --all`);
  }
  return EXIT.ok;
}

function runsText(answer: ListRunsResponse): string {
  if (answer.runs.length === 0) return 'no runs';
  const table = new Table({
    head: ['run', 'capability', 'state', 'USD', 'created', 'finished'],
    style: { head: [], border: [] },
  });
  for (const run of answer.runs) {
    table.push([run.run_id, run.slug, run.status, run.price_usd, run.created_at, run.finished_at ?? '']);
  }
  return table.toString();
}

export async function cancel(ctx: CommandContext, runId: string): Promise<ExitCode> {
  const record = await ctx.client().cancelRun(runId);
  ctx.out.result(record, () =>
    record.status === 'cancelled'
      ? `run ${record.run_id}: cancelled`
      : `run ${record.run_id}: cancel requested; still ${record.status} (it stops at its next check)`,
  );
  return EXIT.ok;
}

export async function upload(
  ctx: CommandContext,
  slug: string,
  file: string,
  opts: { contentType?: string; filename?: string },
): Promise<ExitCode> {
  const path = resolve(ctx.cwd, file);
  const answer = await ctx.client().upload(slug, path, { ...opts, signal: ctx.signal });
  const record = answer.upload as {
    upload_id: string;
    status: string;
    sha256?: string | null;
    size_bytes?: number;
  };
  // Human: only the id on stdout (`ID=$(svc upload …)`), the rest on stderr.
  if (!ctx.out.json) {
    ctx.out.note(
      `uploaded ${basename(path)} for ${slug}: ${record.status}${record.sha256 ? `, sha256 ${record.sha256}` : ''}`,
    );
  }
  ctx.out.result(answer, () => record.upload_id);
  return EXIT.ok;
}

export async function artifacts(
  ctx: CommandContext,
  runId: string,
  downloadDir: string | undefined,
): Promise<ExitCode> {
  const client = ctx.client();
  const manifest = await client.artifacts(runId);
  if (downloadDir === undefined) {
    ctx.out.result(manifest, () => manifestText(ctx.out, manifest));
    return EXIT.ok;
  }
  const dir = resolve(ctx.cwd, downloadDir);
  mkdirSync(dir, { recursive: true });
  const downloaded: Array<{ name: string; path: string; size_bytes: number; sha256: string }> = [];
  for (const artifact of manifest.artifacts) {
    // Names are file names (contract ArtifactName); basename() keeps a hostile one inside DIR anyway.
    const name = basename(artifact.name);
    if (name !== artifact.name || name === '.' || name === '..') {
      throw new UsageError(
        `artifact name ${JSON.stringify(artifact.name)} is not a plain file name; not saved`,
      );
    }
    const saved = await client.downloadArtifact(artifact, join(dir, name), { signal: ctx.signal });
    downloaded.push({ name, path: saved.path, size_bytes: saved.sizeBytes, sha256: saved.sha256 });
    if (!ctx.out.json) ctx.out.note(`saved ${saved.path} (${saved.sizeBytes} bytes, sha256 verified)`);
  }
  ctx.out.result({ ...manifest, downloaded }, () => manifestText(ctx.out, manifest));
  return EXIT.ok;
}

function manifestText(out: Output, manifest: ArtifactManifestResponse): string {
  if (manifest.count === 0) return `run ${manifest.run_id} (${manifest.status}): no artifacts`;
  return [
    `run ${manifest.run_id} (${manifest.status}): ${manifest.count} artifact${manifest.count === 1 ? '' : 's'}`,
    ...manifest.artifacts.map(
      (a) => `  ${out.c.bold(a.name)}  ${a.content_type}  ${a.size_bytes} bytes  sha256 ${a.sha256}`,
    ),
  ].join('\n');
}

export async function whoami(ctx: CommandContext): Promise<ExitCode> {
  const answer = await ctx.client().whoami(ctx.signal);
  ctx.out.result(answer, () =>
    [
      `client ${answer.client_name} (${answer.client_id})`,
      `key    ${answer.key_id}`,
      `scopes ${answer.scopes.join(' ')}`,
    ].join('\n'),
  );
  return EXIT.ok;
}

export async function balance(ctx: CommandContext): Promise<ExitCode> {
  const answer = await ctx.client().balance();
  ctx.out.result(answer, () => balanceText(answer));
  return EXIT.ok;
}

function balanceText(b: BalanceResponse): string {
  return [
    `balance   ${b.balance_usd} USD`,
    `held      ${b.held_usd} USD`,
    `spent     ${b.spent_usd} USD (${b.period.start.slice(0, 10)} – ${b.period.end.slice(0, 10)})`,
    `spend cap ${b.spend_cap_usd === null ? 'none' : `${b.spend_cap_usd} USD`}`,
    `remaining ${b.remaining_usd} USD`,
  ].join('\n');
}

export async function usage(
  ctx: CommandContext,
  q: { from?: string; to?: string; slug?: string; limit?: number },
): Promise<ExitCode> {
  const answer = await ctx.client().usageStatement(q);
  ctx.out.result(answer, () => usageText(answer));
  return EXIT.ok;
}

function usageText(statement: UsageStatementResponse): string {
  const lines = [
    `${statement.period.start.slice(0, 10)} – ${statement.period.end.slice(0, 10)}${statement.slug ? ` (${statement.slug})` : ''}: ` +
      `${statement.totals.runs} charged run${statement.totals.runs === 1 ? '' : 's'}, ${statement.totals.spent_usd} USD`,
  ];
  if (statement.by_capability.length > 0) {
    const table = new Table({ head: ['capability', 'runs', 'spent USD'], style: { head: [], border: [] } });
    for (const row of statement.by_capability) table.push([row.slug, row.runs, row.spent_usd]);
    lines.push(table.toString());
  }
  if (statement.lines.length > 0) {
    const table = new Table({
      head: ['captured at', 'capability', 'USD', 'run'],
      style: { head: [], border: [] },
    });
    for (const line of statement.lines)
      table.push([line.captured_at, line.slug, line.amount_usd, line.run_id]);
    lines.push(table.toString());
    if (statement.lines_truncated)
      lines.push(`(the ${statement.lines.length} newest lines; --limit for more)`);
  }
  return lines.join('\n');
}
