import type { ServiceClient } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';

/**
 * The vault service as the REST routes call it: the methods they use of its typed client (@svc/bus
 * serviceClient; main.ts builds it, with a longer timeout for the calls that read documents). Every
 * request names the client from the verified API key, never from the body (decisions VL1); writes
 * and decryptions carry the API request's id for the audit trail. Answers carry masked values only
 * (VL2). Errors are AppErrors and pass through unchanged: 404 for an unknown or another client's
 * field, extraction, upload or document (the same words), 409 for a stale version or an existing
 * field, 422 for a value that fails its type's check (naming the field and the rule, never the
 * value), 503 when the vault (or a service it calls) does not answer.
 */
export type VaultService = Pick<
  ServiceClient<PlatformCatalog, 'vault'>,
  | 'profile'
  | 'listFields'
  | 'saveField'
  | 'deleteField'
  | 'createExtraction'
  | 'listExtractions'
  | 'getExtraction'
  | 'reviewExtraction'
  | 'fillDocument'
  | 'listDocuments'
  | 'getDocument'
  | 'audit'
>;
