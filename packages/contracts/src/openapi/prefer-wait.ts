import { z } from 'zod';

/**
 * `Prefer: wait=N` (RFC 7240, as Replicate's API takes it) on the generic run route and on the run
 * status read: the answer waits up to N seconds for the run to end. The bound is the crt route's own
 * server-side wait (CRT_RUN_WAIT_MS), so no request is held longer than the longest one today.
 */
export const PREFER_WAIT_MAX_SECONDS = 55;

/** The request header: any RFC 7240 preferences; only `wait` is acted on, the rest ignored (§2). */
export const PreferWaitHeader = z.object({
  prefer: z
    .string()
    .optional()
    .describe(
      `RFC 7240 preferences. \`wait=N\` (whole seconds; above ${PREFER_WAIT_MAX_SECONDS} waits ${PREFER_WAIT_MAX_SECONDS}) ` +
        'holds the answer until the run ends or N seconds pass, then answers as without it, with the run as ' +
        'it is then and `Preference-Applied: wait=N`. Other preferences, and a `wait` that is not a whole ' +
        'number of seconds above 0, are ignored (no error).',
    ),
});

/** The answer's `Preference-Applied` header: present when a `wait` preference was honoured. */
export const PreferenceAppliedHeader = z.object({
  'Preference-Applied': z
    .string()
    .regex(/^wait=\d+$/)
    .optional()
    .describe('`wait=N`: the request waited up to N seconds for the run to end (its Prefer: wait, bounded).'),
});
export type PreferenceApplied = z.infer<typeof PreferenceAppliedHeader>;
