import { z } from 'zod';
import { Uuid } from '../common';
import { VaultAuditQuery } from './audit';
import { ListExtractionsQuery, ReviewExtractionRequest, VaultDocumentSource } from './extractions';
import { VaultFieldName } from './field-types';
import { SaveVaultFieldRequest } from './fields';
import { FillDocumentRequest } from './fill';

/**
 * Requests of `rpc.vault` (gateway → vault). Every one names the client whose vault it reads or
 * writes (from the verified API key, never from the body); writes and decryptions carry the API
 * request's id for the audit trail. Plaintext values ride only in requests (sealed by the bus),
 * never in replies.
 */
const ClientRef = { client_id: Uuid };
const RequestRef = { request_id: z.string().min(1).max(200) };

export const VaultClientRequest = z.object(ClientRef);
export const SaveVaultFieldRpc = z.object({ ...ClientRef, ...RequestRef, field: SaveVaultFieldRequest });
export const DeleteVaultFieldRpc = z.object({
  ...ClientRef,
  ...RequestRef,
  name: VaultFieldName,
  expected_version: z.number().int().min(1).optional(),
});
export const CreateExtractionRpc = z.object({ ...ClientRef, ...RequestRef, document: VaultDocumentSource });
export const ListExtractionsRpc = z.object({ ...ClientRef, query: ListExtractionsQuery });
export const GetExtractionRpc = z.object({ ...ClientRef, extraction_id: Uuid });
export const ReviewExtractionRpc = z.object({
  ...ClientRef,
  ...RequestRef,
  extraction_id: Uuid,
  review: ReviewExtractionRequest,
});
/** `base_url`: the gateway's public base, for the artifact's signed download link. */
export const FillDocumentRpc = z.object({
  ...ClientRef,
  ...RequestRef,
  base_url: z.url(),
  request: FillDocumentRequest,
});
export const ListVaultDocumentsRpc = z.object({ ...ClientRef, base_url: z.url() });
export const GetVaultDocumentRpc = z.object({ ...ClientRef, base_url: z.url(), document_id: Uuid });
export const VaultAuditRpc = z.object({ ...ClientRef, query: VaultAuditQuery });
