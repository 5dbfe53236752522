import { BalanceResponse, WhoAmIResponse } from '../account';
import { SpendDiagnosticsResponse, UsageStatementQuery, UsageStatementResponse } from '../ledger';
import { defineOperation } from './operation-types';

/** Account endpoints (spec §4.12-§4.14; whoami is ours). */
export const accountOperations = [
  defineOperation({
    method: 'get',
    path: '/api/account/whoami',
    operationId: 'whoAmI',
    summary: 'Identify the calling API key',
    tags: ['account'],
    auth: { kind: 'key', scopes: [] },
    success: {
      status: 200,
      description: 'The client and scopes of the presented key.',
      schema: WhoAmIResponse,
    },
    errors: [401, 500, 503],
  }),
  defineOperation({
    method: 'get',
    path: '/api/account/balance',
    operationId: 'getBalance',
    summary: 'Wallet balance and spend controls',
    description: 'Balance, open holds, spend in the current UTC calendar month, spend cap and what remains.',
    tags: ['account'],
    auth: { kind: 'key', scopes: ['billing:read'] },
    success: { status: 200, description: 'Wallet and spend controls.', schema: BalanceResponse },
    errors: [401, 403, 500, 503],
  }),
  defineOperation({
    method: 'get',
    path: '/api/account/usage-statement',
    operationId: 'getUsageStatement',
    summary: 'Usage statement: charged runs and totals for a period',
    description:
      'Charged runs (captures) in [`from`, `to`), newest first up to `limit` (`lines_truncated` says more ' +
      'exist), totals per capability (largest spend first) and overall; the totals always cover the whole ' +
      'period. Default period: the current UTC calendar month; at most 366 days. Unknown query parameters ' +
      'are rejected with 422.',
    tags: ['account'],
    auth: { kind: 'key', scopes: ['billing:read'] },
    params: { query: UsageStatementQuery },
    success: { status: 200, description: 'The usage statement.', schema: UsageStatementResponse },
    errors: [401, 403, 422, 500, 503],
    errorNotes: {
      422: 'Invalid or unknown query parameter, `from` not before `to`, or a period longer than 366 days.',
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/account/spend-diagnostics',
    operationId: 'getSpendDiagnostics',
    summary: 'Spend diagnostics: burn rate, projections, top capabilities',
    description:
      'Spend in the trailing 1 h, 24 h and 7 d windows, a straight-line projection of when the spend cap ' +
      'would be reached and the balance emptied (null when there is nothing to extrapolate or the point ' +
      "lies beyond the period / a year), and this period's top capabilities by spend. Takes no parameters.",
    tags: ['account'],
    auth: { kind: 'key', scopes: ['billing:read'] },
    refusesQuery: true,
    success: { status: 200, description: 'Spend diagnostics.', schema: SpendDiagnosticsResponse },
    errors: [401, 403, 422, 500, 503],
    errorNotes: { 422: 'A query parameter was sent: this endpoint takes none.' },
  }),
] as const;
