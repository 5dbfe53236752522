import type { VaultAuditEvent } from '@svc/contracts';
import { Pagination, Table, Time } from './components';
import { VaultNav } from './vault-nav';

const PURPOSES: Readonly<Record<string, string>> = {
  fill: 'filled a document',
  approve: 'approved an extracted value',
};

/** GET /dashboard/vault/audit: every decryption of a value, newest first. */
export function VaultAudit(props: {
  readonly events: readonly VaultAuditEvent[];
  readonly nextHref: string | null;
}) {
  return (
    <>
      <VaultNav active="audit" />
      <p class="muted">Every time a value was decrypted, and why.</p>
      <Table
        testId="audit-table"
        columns={['When', 'Why', 'Field', 'Document or extraction', 'Request', 'Key version']}
        rowCount={props.events.length}
        empty="No value was decrypted yet."
      >
        {props.events.map((event) => (
          <tr key={event.event_id} data-testid="audit-row" data-purpose={event.purpose}>
            <td>
              <Time at={event.at} />
            </td>
            <td>{PURPOSES[event.purpose] ?? event.purpose}</td>
            <td>
              <code>{event.field}</code>
            </td>
            <td>
              <code>{event.subject_id}</code>
            </td>
            <td>
              <code>{event.request_id}</code>
            </td>
            <td>{event.key_version}</td>
          </tr>
        ))}
      </Table>
      <Pagination nextHref={props.nextHref} />
    </>
  );
}
