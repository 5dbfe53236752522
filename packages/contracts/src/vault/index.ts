export { VaultAuditEvent, VaultAuditPurpose, VaultAuditQuery, VaultAuditResponse } from './audit';
export {
  CandidateDecision,
  CandidateStatus,
  CreateExtractionRequest,
  ExtractionCandidate,
  ExtractionIdParams,
  ExtractionResponse,
  ExtractionStatus,
  ListExtractionsQuery,
  ListExtractionsResponse,
  ReviewExtractionRequest,
  ReviewExtractionResponse,
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_TEXT_MAX_CHARACTERS,
  VAULT_DOCUMENT_UPLOAD_SLUG,
  VAULT_MAX_CANDIDATES,
  VaultDocumentSource,
  VaultExtraction,
} from './extractions';
export {
  VAULT_COMMON_PROFILE_FIELDS,
  VAULT_FIELD_NAME_PATTERN,
  VAULT_FIELD_TYPE_DOCS,
  VAULT_FIELD_TYPES,
  VAULT_MAX_FIELDS_PER_CLIENT,
  VAULT_VALUE_MAX_CHARACTERS,
  VaultFieldName,
  VaultFieldType,
} from './field-types';
export {
  DeleteVaultFieldQuery,
  DeleteVaultFieldResponse,
  ListVaultFieldsResponse,
  SaveVaultFieldRequest,
  SaveVaultFieldResponse,
  VaultField,
  VaultFieldNameParams,
  VaultFieldSource,
} from './fields';
export {
  FillDocumentRequest,
  FillDocumentResponse,
  FillReport,
  FillTemplate,
  ListVaultDocumentsResponse,
  VAULT_TEMPLATE_TEXT_MAX_CHARACTERS,
  VaultDocument,
} from './fill';
export { VaultProfileResponse } from './profile';
export { VaultRotationState } from './rotation';
export {
  CreateExtractionRpc,
  DeleteVaultFieldRpc,
  FillDocumentRpc,
  GetExtractionRpc,
  GetVaultDocumentRpc,
  ListExtractionsRpc,
  ListVaultDocumentsRpc,
  ReviewExtractionRpc,
  SaveVaultFieldRpc,
  VaultAuditRpc,
  VaultClientRequest,
} from './rpc-schemas';
