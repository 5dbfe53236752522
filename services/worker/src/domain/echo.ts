import type { JobPayload, JobResultInput } from '@svc/capabilities';

/**
 * `system.echo`: answers its payload unchanged. The first real job handler: it proves the whole
 * path (enqueue → Redis → a worker replica → result) without side effects, so retries and
 * redeliveries are harmless (at-least-once delivery, NOTES "BullMQ and Redis").
 */
export async function echo(payload: JobPayload<'system.echo'>): Promise<JobResultInput<'system.echo'>> {
  return { message: payload.message };
}
