import { type Bus, type RpcServer, serveRpc } from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import type { ClaimRefusal } from '@svc/contracts';
import { InternalError, ServiceUnavailableError } from '@svc/errors';
import type {
  AttemptPort,
  ClaimAnswer,
  ClaimRequest,
  ReportRequest,
} from '../../src/adapters/orchestrator-attempts';

/**
 * The orchestrator as a worker sees it (claimAttempt, reportRun), kept in memory: each claim of a
 * run counts an attempt unless the test made the run refuse (final, cancelled, superseded); every
 * report is recorded, the first final one of a run applied. `port` is the in-process AttemptPort;
 * `serve` answers the same on a bus's `rpc.orchestrator` for a worker process. A test can make the
 * next report calls go unanswered (503), as when the orchestrator or Redis is down.
 */
export class FakeOrchestrator {
  readonly claims: ClaimRequest[] = [];
  /** Every report call that got an answer, in order. */
  readonly reports: ReportRequest[] = [];
  /** Report calls that were not answered (503). */
  unanswered = 0;
  private readonly attempts = new Map<string, number>();
  private readonly refusals = new Map<string, ClaimRefusal>();
  private readonly finals = new Set<string>();
  private failing = 0;

  readonly port: AttemptPort = {
    claimAttempt: async (request) => this.claim(request),
    reportRun: async (report) => this.report(report),
  };

  /** Claims of `runId` are refused with `reason` from now on. */
  refuse(runId: string, reason: ClaimRefusal): void {
    this.refusals.set(runId, reason);
  }

  /** The next `count` report calls are not answered (Infinity: until `answerReports`). */
  failReports(count: number): void {
    this.failing = count;
  }

  answerReports(): void {
    this.failing = 0;
  }

  reportsOf(runId: string): ReportRequest[] {
    return this.reports.filter((report) => report.run_id === runId);
  }

  claimsOf(runId: string): ClaimRequest[] {
    return this.claims.filter((claim) => claim.run_id === runId);
  }

  private claim(request: ClaimRequest): ClaimAnswer {
    this.claims.push(request);
    const refusal = this.refusals.get(request.run_id);
    if (refusal !== undefined) return { go: false, reason: refusal };
    const attempt = (this.attempts.get(request.run_id) ?? 0) + 1;
    this.attempts.set(request.run_id, attempt);
    return { go: true, attempt };
  }

  private report(report: ReportRequest): { applied: boolean } {
    if (this.failing > 0) {
      this.failing -= 1;
      this.unanswered += 1;
      throw new ServiceUnavailableError('orchestrator service did not answer within 10000 ms');
    }
    this.reports.push(report);
    if (report.event === 'retrying') return { applied: !this.finals.has(report.run_id) };
    if (this.finals.has(report.run_id)) return { applied: false };
    this.finals.add(report.run_id);
    return { applied: true };
  }

  /** Answers `rpc.orchestrator` on `bus` with this fake (the other methods are not served: 500). */
  serve(bus: Bus<MessageCatalog>): RpcServer {
    const notServed = async (): Promise<never> => {
      throw new InternalError('not served by the fake orchestrator');
    };
    return serveRpc(bus, 'orchestrator', {
      claimAttempt: (request) => this.port.claimAttempt(request),
      reportRun: (report) => this.port.reportRun(report),
      startCrtRun: notServed,
      getRun: notServed,
      quote: notServed,
      startRun: notServed,
      cancelRun: notServed,
      receipt: notServed,
      listRuns: notServed,
      runCounts: notServed,
      runTimeline: notServed,
    });
  }
}
