import { apiOperation, operationPath } from '@svc/contracts';
import type { VaultService } from '../domain/vault-service';
import { route } from '../routing/route';

const getExtraction = apiOperation('getVaultExtraction');
const getDocument = apiOperation('getVaultDocument');

/**
 * The vault (spec §4.15-§4.20, decisions VL4 and VG1-VG6). Each route, from its operation: no-store
 * (every answer is private to one client, errors included), the key and its scope, the JSON body
 * (415/413/400, then the safe-input check; extractions and fills read a whole document, under the
 * document limit), the strict contract schema (422 naming the field, never a value: formatZodError
 * quotes no value; reads that take no parameters refuse any). Then one `rpc.vault` call for the
 * key's client, with the request id for the audit trail. The vault answers masked values only; its
 * AppErrors (404, 409, 422, 503) pass through as they are.
 *
 * Scopes: `vault:read` reads masked state (profile, fields, extractions, audit); `vault:write` changes
 * it (fields, extractions, reviews); `vault:fill` makes and lists filled documents, the only answers
 * that lead to plaintext (their download links), so a read-only key never reaches a value (VG2).
 */
export function vaultRoutes(vault: VaultService) {
  return {
    getVaultProfile: route(apiOperation('getVaultProfile'), async ({ auth }) => ({
      status: 200,
      body: await vault.profile({ client_id: auth.clientId }),
    })),
    listVaultFields: route(apiOperation('listVaultFields'), async ({ auth }) => ({
      status: 200,
      body: await vault.listFields({ client_id: auth.clientId }),
    })),
    saveVaultField: route(apiOperation('saveVaultField'), async ({ auth, body }, { requestId }) => {
      const saved = await vault.saveField({ client_id: auth.clientId, request_id: requestId, field: body });
      return saved.outcome === 'created' ? { status: 201, body: saved } : { status: 200, body: saved };
    }),
    deleteVaultField: route(
      apiOperation('deleteVaultField'),
      async ({ auth, params, query }, { requestId }) => ({
        status: 200,
        body: await vault.deleteField({
          client_id: auth.clientId,
          request_id: requestId,
          name: params.name,
          ...(query.expected_version === undefined ? {} : { expected_version: query.expected_version }),
        }),
      }),
    ),
    listVaultExtractions: route(apiOperation('listVaultExtractions'), async ({ auth, query }) => ({
      status: 200,
      body: await vault.listExtractions({ client_id: auth.clientId, query }),
    })),
    createVaultExtraction: route(
      apiOperation('createVaultExtraction'),
      async ({ auth, body }, { requestId }) => {
        const created = await vault.createExtraction({
          client_id: auth.clientId,
          request_id: requestId,
          document: body.document,
        });
        const location = operationPath(getExtraction, { extraction_id: created.extraction.extraction_id });
        return { status: 201, body: created, headers: { Location: location } };
      },
    ),
    getVaultExtraction: route(getExtraction, async ({ auth, params }) => ({
      status: 200,
      body: await vault.getExtraction({ client_id: auth.clientId, extraction_id: params.extraction_id }),
    })),
    reviewVaultExtraction: route(
      apiOperation('reviewVaultExtraction'),
      async ({ auth, params, body }, { requestId }) => ({
        status: 200,
        body: await vault.reviewExtraction({
          client_id: auth.clientId,
          request_id: requestId,
          extraction_id: params.extraction_id,
          review: body,
        }),
      }),
    ),
    fillVaultDocument: route(apiOperation('fillVaultDocument'), async ({ auth, body }, context) => {
      const filled = await vault.fillDocument({
        client_id: auth.clientId,
        request_id: context.requestId,
        // The artifact's download link is built on it, as for run artifacts.
        base_url: context.baseUrl(),
        request: body,
      });
      const location = operationPath(getDocument, { document_id: filled.document.document_id });
      return { status: 201, body: filled, headers: { Location: location } };
    }),
    listVaultDocuments: route(apiOperation('listVaultDocuments'), async ({ auth }, context) => ({
      status: 200,
      body: await vault.listDocuments({ client_id: auth.clientId, base_url: context.baseUrl() }),
    })),
    getVaultDocument: route(getDocument, async ({ auth, params }, context) => ({
      status: 200,
      body: await vault.getDocument({
        client_id: auth.clientId,
        base_url: context.baseUrl(),
        document_id: params.document_id,
      }),
    })),
    getVaultAudit: route(apiOperation('getVaultAudit'), async ({ auth, query }) => ({
      status: 200,
      body: await vault.audit({ client_id: auth.clientId, query }),
    })),
  };
}
