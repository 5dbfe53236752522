import { randomUUID } from 'node:crypto';
import {
  CrtRunRequest,
  isTerminalRunState,
  McpRunTool,
  type RunRecord,
  type RunRequest,
} from '@svc/contracts';
import { isAppError, toErrorResponse, ValidationError } from '@svc/errors';
import { runCrt } from '../../domain/crt-run';
import { crtRunAnswer } from '../../domain/crt-run-answer';
import { runStartAnswer } from '../../domain/run-answers';
import type { StartedRun } from '../../domain/run-orchestrator';
import { startCapabilityRun } from '../../domain/run-start';
import { waitForRun } from '../../domain/run-wait';
import { parseRequest } from '../../middleware/validate';
import { defineTool, NotedToolError, type ToolContext, type ToolExtra } from '../tool-kit';

/**
 * Progress notifications for a client that sent a progressToken (decisions M5): one per status
 * change of the run while the tool waits. Undefined without a token: nothing is sent.
 */
function progressReporter(extra: ToolExtra): ((run: RunRecord) => Promise<void>) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let progress = 0;
  return async (run) => {
    progress += 1;
    await extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken: token, progress, message: `run ${run.run_id} is ${run.status}` },
    });
  };
}

/**
 * crt: its own flow (runCrt + a bounded wait, like POST /api/capabilities/crt/run); the caller then
 * gives the REST route's answers for a failed or cancelled run (crtRunAnswer: 502/500/409 messages).
 * Every other capability: startCapabilityRun like POST /api/capabilities/{slug}/run, then a wait only
 * when the client asked for progress.
 */
async function startAndWait(
  context: ToolContext,
  args: RunRequest & { slug: string },
  idempotencyKey: string,
  extra: ToolExtra,
): Promise<StartedRun> {
  const { services, auth } = context;
  const onChange = progressReporter(extra);
  if (args.slug === 'crt') {
    // The REST crt envelope and input rules (422 naming the field), e.g. `input.apex: …`.
    const request = parseRequest(CrtRunRequest, {
      input: args.input,
      client_type: args.client_type,
      ...(args.quote_id === undefined ? {} : { quote_id: args.quote_id }),
    });
    const outcome = await runCrt(services.orchestrator, services.runWaiter, {
      clientId: auth.clientId,
      request,
      idempotencyKey,
      waitMs: services.runWaitMs,
      signal: extra.signal,
      onChange,
    });
    return { replay: outcome.replay, quote: outcome.quote, run: outcome.run };
  }
  const { slug, ...request } = args;
  const started = await startCapabilityRun(services.orchestrator, slug, {
    clientId: auth.clientId,
    request,
    idempotencyKey,
  });
  if (onChange === undefined || isTerminalRunState(started.run.status)) return started;
  const run = await waitForRun(services.runWaiter, auth.clientId, started.run, {
    timeoutMs: services.runWaitMs,
    signal: extra.signal,
    onChange,
    reload: (clientId, runId) => services.orchestrator.getRun({ client_id: clientId, run_id: runId }),
  });
  return { ...started, run };
}

/**
 * The orchestrator refuses a paid run without `quote_id` in REST's words, naming the route to quote
 * with (`… (POST /api/capabilities/<slug>/quote)`, start-capability-run.ts). An agent quotes with
 * a tool, so the tool's answer names that tool instead (issue 23 item 13); every other error keeps
 * the REST words (decisions M4).
 */
const QUOTE_ROUTE_ADVICE =
  /^(quote_id is required for paid capabilities: .*)\(POST \/api\/capabilities\/[^/\s)]+\/quote\)$/;

function inToolWords(err: unknown): unknown {
  if (!isAppError(err) || err.status !== 422) return err;
  const advice = QUOTE_ROUTE_ADVICE.exec(err.message);
  if (advice === null) return err;
  return new ValidationError(
    `${advice[1]}(svc_tool_quote with the same slug and input, then pass its quote.quote_id to svc_tool_run)`,
    { cause: err },
  );
}

/** `svc_tool_run` = POST /api/capabilities/{slug}/run (crt: POST /api/capabilities/crt/run). */
export const runTool = defineTool({
  ...McpRunTool,
  call: async ({ idempotency_key, ...args }, context, extra) => {
    const madeUp = idempotency_key === undefined;
    const key = idempotency_key ?? `mcp-${randomUUID()}`;
    let started: StartedRun;
    try {
      started = await startAndWait(context, args, key, extra);
    } catch (err) {
      // A 5xx (e.g. the orchestrator did not answer in time) leaves it open whether the run was
      // recorded: the agent needs the key it never saw to retry without starting a second run.
      if (madeUp && toErrorResponse(err).status >= 500) {
        throw new NotedToolError(
          err,
          `no idempotency_key was given; used "${key}" — pass it again to retry safely`,
        );
      }
      throw inToolWords(err);
    }
    // The REST crt route's error of a failed or cancelled run (502/500/409): its outcome is known,
    // so the key would only replay it.
    if (args.slug === 'crt') crtRunAnswer({ ...started, idempotencyKey: key });
    const body = runStartAnswer(started).body;
    const replay = body.idempotent_replay ? ' (replay: no new work)' : '';
    const parts = [`run ${body.run_id} of ${args.slug} is ${body.status}${replay}`];
    if (madeUp) parts.push(`no idempotency_key was given; used "${key}" — pass it again to retry safely`);
    if (!isTerminalRunState(body.status)) parts.push(`call svc_tool_status with run_id ${body.run_id}`);
    return { summary: parts.join('; '), body };
  },
});
