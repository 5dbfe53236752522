import type { ServiceHandlers } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import { auditTrail } from '../domain/audit-trail';
import type { VaultDeps } from '../domain/deps';
import { deleteField } from '../domain/fields/delete-field';
import { listFields } from '../domain/fields/list-fields';
import { saveField } from '../domain/fields/save-field';
import { vaultProfile } from '../domain/profile/profile';
import { rotationState } from '../domain/rotation/rotation-state';
import { type EnqueueRewrap, startRotation } from '../domain/rotation/start-rotation';
import { documentHandlers } from './document-handlers';
import { extractionHandlers } from './extraction-handlers';

/**
 * `rpc.vault` methods (ping is answered by serveRpc itself). Transport only: requests arrive parsed
 * against rpcCatalog; AppErrors travel back as themselves; anything else is a 500 whose message
 * stays in this process's log (none carries a value: domain errors name fields and rules only).
 * The client id comes from the gateway's verified API key, never from a body.
 */
export function vaultHandlers(
  deps: VaultDeps,
  enqueueRewrap: EnqueueRewrap,
): ServiceHandlers<PlatformCatalog, 'vault'> {
  return {
    profile: async ({ client_id }) => ({ ok: true, profile: await vaultProfile(deps, client_id) }),
    listFields: async ({ client_id }) => {
      const fields = await listFields(deps, client_id);
      return { ok: true, count: fields.length, fields };
    },
    saveField: async ({ client_id, field }) => ({
      ok: true,
      ...(await saveField(deps, {
        clientId: client_id,
        name: field.name,
        type: field.type,
        value: field.value,
        expectedVersion: field.expected_version,
      })),
    }),
    deleteField: async ({ client_id, name, expected_version }) => ({
      ok: true,
      deleted: await deleteField(deps, { clientId: client_id, name, expectedVersion: expected_version }),
    }),
    audit: async ({ client_id, query }) => ({ ok: true, ...(await auditTrail(deps, client_id, query)) }),
    rotationStatus: () => rotationState(deps),
    startRotation: () => startRotation({ ...deps, enqueue: enqueueRewrap }),
    ...extractionHandlers(deps),
    ...documentHandlers(deps),
  };
}
