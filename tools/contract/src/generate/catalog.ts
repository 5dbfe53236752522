import {
  CRT_DEFAULT_LIMIT,
  CRT_MAX_LIMIT,
  ERROR_DESCRIPTIONS,
  type ErrorStatus,
  SCOPES,
  type Scope,
  UPLOAD_MAX_BYTES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_TEXT_MAX_CHARACTERS,
  VAULT_MAX_FIELDS_PER_CLIENT,
  VAULT_VALUE_MAX_CHARACTERS,
} from '@svc/contracts';
import type { ErrorStatusElement, LimitElement, ScopeElement } from '../manifest-types';

/** Every error status an operation may declare, with its generic meaning (contracts ERROR_DESCRIPTIONS). */
export function errorStatusElements(): ErrorStatusElement[] {
  return Object.entries(ERROR_DESCRIPTIONS).map(([status, meaning]) => ({
    id: `error:${status}`,
    kind: 'error_status',
    status: Number(status) as ErrorStatus,
    meaning,
  }));
}

/** Spec §5.3: what each scope lets a key do (a new scope without a line here fails to compile). */
const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'capabilities:read': 'Search and describe capabilities (REST list and describe need no key at all).',
  'capabilities:quote': 'Quote a capability run.',
  'capabilities:run': 'Start, follow and cancel runs.',
  'uploads:write': 'Open upload sessions for capabilities that take files.',
  'artifacts:read': 'List and download the artifacts of runs and filled vault documents.',
  'billing:read': 'Read the balance, spend cap, usage statement, spend diagnostics and run receipts.',
  'vault:read': 'Read vault fields (masked), the profile and the audit log.',
  'vault:write': 'Create, update and delete vault fields; extract and review candidates.',
  'vault:fill': 'Fill documents from vault fields and list the filled documents.',
};

export function scopeElements(): ScopeElement[] {
  return SCOPES.map((name) => ({
    id: `scope:${name}`,
    kind: 'scope',
    name,
    description: SCOPE_DESCRIPTIONS[name],
  }));
}

/** Defaults of operator settings published as limits (the service's env schemas own them). */
const UPLOAD_SESSION_TTL_DEFAULT_MS = 900_000; // services/uploads UPLOAD_SESSION_TTL_MS default
const QUOTE_TTL_MS = 15 * 60_000; // services/orchestrator RUN_QUOTE_TTL_MS

type LimitSpec = Omit<LimitElement, 'id' | 'kind'>;

/** Spec §8 and this service's published bounds. */
const LIMITS: readonly LimitSpec[] = [
  {
    name: 'crt.limit',
    value: { min: 1, max: CRT_MAX_LIMIT },
    unit: 'observations',
    description: `crt input \`limit\`: an integer, default ${CRT_DEFAULT_LIMIT}.`,
  },
  {
    name: 'crt.observations',
    value: { min: 0, max: CRT_MAX_LIMIT },
    unit: 'observations',
    description: 'Observations per crt result (`count`).',
  },
  {
    name: 'idempotency_key.length',
    value: { min: 8, max: 190 },
    unit: 'characters',
    description:
      'Idempotency-Key header (and svc_tool_run `idempotency_key`): characters of A-Z a-z 0-9 . _ : -.',
  },
  {
    name: 'client_type.length',
    value: { min: 2, max: 24 },
    unit: 'characters',
    description: '`client_type`: characters of A-Z a-z 0-9 _ -.',
  },
  {
    name: 'upload.size',
    value: UPLOAD_MAX_BYTES,
    unit: 'bytes',
    description:
      "Ceiling of one upload; each capability's describe `file_requirements.max_size_bytes` may be lower.",
  },
  {
    name: 'upload_session.ttl',
    value: UPLOAD_SESSION_TTL_DEFAULT_MS,
    unit: 'milliseconds',
    description:
      'Lifetime of an upload session and its token (default; the operator sets UPLOAD_SESSION_TTL_MS).',
  },
  {
    name: 'quote.ttl',
    value: QUOTE_TTL_MS,
    unit: 'milliseconds',
    description: 'How long a quote may start its one run.',
  },
  {
    name: 'vault.value.length',
    value: VAULT_VALUE_MAX_CHARACTERS,
    unit: 'characters',
    description: 'Longest vault field value (free_text; other types are shorter).',
  },
  {
    name: 'vault.fields',
    value: VAULT_MAX_FIELDS_PER_CLIENT,
    unit: 'fields',
    description: 'Vault fields per client.',
  },
  {
    name: 'vault.document_text.length',
    value: VAULT_DOCUMENT_TEXT_MAX_CHARACTERS,
    unit: 'characters',
    description: 'Text of a document sent inline for extraction.',
  },
  {
    name: 'vault.document_upload.size',
    value: VAULT_DOCUMENT_MAX_BYTES,
    unit: 'bytes',
    description: 'An uploaded vault document (PDF, text, markdown) for extraction.',
  },
];

export function limitElements(): LimitElement[] {
  return LIMITS.map((limit) => ({ id: `limit:${limit.name}`, kind: 'limit', ...limit }));
}
