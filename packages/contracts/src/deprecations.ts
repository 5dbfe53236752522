import { z } from 'zod';
import { API_VERSION } from './common';

/**
 * The kinds of contract element (contract/manifest.json, spec §9) by id prefix: `rest:<METHOD> <path>`,
 * `mcp:<tool name>`, `mode:<value>`, `state:<value>`, `lifecycle:<name>`, `error:<status>`,
 * `scope:<name>`, `limit:<name>`.
 */
export const CONTRACT_ELEMENT_PREFIXES = [
  'rest',
  'mcp',
  'mode',
  'state',
  'lifecycle',
  'error',
  'scope',
  'limit',
] as const;

/** An element id: a known kind prefix, a colon, a non-empty key without control characters. */
export const ContractElementId = z
  .string()
  .regex(
    new RegExp(`^(?:${CONTRACT_ELEMENT_PREFIXES.join('|')}):[^\\u0000-\\u001f\\u007f]+$`),
    `must be an element id: one of ${CONTRACT_ELEMENT_PREFIXES.map((p) => `${p}:`).join(', ')} then its key`,
  );

/**
 * The page a deprecation points to (`Link: <…>; rel="deprecation"`): an absolute http(s) URL that
 * can sit between `<` and `>` of a Link header as is (no spaces, quotes or angle brackets).
 */
const DeprecationLink = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .regex(/^[^\s<>"]+$/, 'must not contain spaces, quotes or angle brackets');

/**
 * One deprecated element (spec §9; RFC 9745 Deprecation, RFC 8594 Sunset). Both dates are whole UTC
 * days and mean 00:00:00Z of that day: `since` is when it became deprecated, `sunset` the earliest
 * moment it may stop answering, never before `since` (RFC 9745 §3). `replacement`: the element id a
 * client should move to; `link`: human documentation of the deprecation.
 */
export const ContractDeprecation = z
  .strictObject({
    since: z.iso.date({ error: 'must be a date YYYY-MM-DD' }),
    sunset: z.iso.date({ error: 'must be a date YYYY-MM-DD' }),
    replacement: ContractElementId.optional(),
    link: DeprecationLink,
  })
  .refine((d) => d.sunset >= d.since, { path: ['sunset'], error: 'must not be earlier than since' });
export type ContractDeprecation = z.infer<typeof ContractDeprecation>;

/** Element id → its deprecation; an element is never its own replacement. */
export const ContractDeprecations = z.record(z.string(), ContractDeprecation).superRefine((all, ctx) => {
  for (const [id, d] of Object.entries(all)) {
    const key = ContractElementId.safeParse(id);
    for (const issue of key.error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: [id], message: issue.message });
    }
    if (d.replacement === id) {
      ctx.addIssue({ code: 'custom', path: [id, 'replacement'], message: 'must not be the element itself' });
    }
  }
});
export type ContractDeprecations = z.infer<typeof ContractDeprecations>;

/**
 * The deprecated contract elements, by element id (e.g. `rest:GET /api/x`, `mcp:svc_tool_run`).
 * Spec §9.5: nothing is deprecated today. Read by `pnpm contract generate` (the manifest's
 * `deprecated` field) and by the gateway (the Deprecation/Sunset/Link headers, the MCP tool list);
 * the gateway refuses to start when an entry names an element it does not have.
 */
export const CONTRACT_DEPRECATIONS: Readonly<Record<string, ContractDeprecation>> = Object.freeze({});

/** The header every gateway answer carries: the interface's version label (API_VERSION). */
export const CONTRACT_VERSION_HEADER = 'Svc-Contract-Version';

/** Seconds since the epoch of 00:00:00Z of a YYYY-MM-DD day. */
export function utcDaySeconds(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${day}`);
  return ms / 1000;
}

/** `Deprecation` (RFC 9745 §2.1): a structured-field Date, `@` and the unix seconds of `since`. */
export function deprecationHeaderValue(d: ContractDeprecation): string {
  return `@${utcDaySeconds(d.since)}`;
}

/** `Sunset` (RFC 8594 §3): the HTTP-date (IMF-fixdate) of 00:00:00Z of `sunset`. */
export function sunsetHeaderValue(d: ContractDeprecation): string {
  return new Date(utcDaySeconds(d.sunset) * 1000).toUTCString();
}

/** A replacement element as a client names it: the tool name, `GET /api/x`, or the id itself. */
export function replacementLabel(id: string): string {
  if (id.startsWith('mcp:') || id.startsWith('rest:')) return id.slice(id.indexOf(':') + 1);
  return id;
}

/** The sentence a deprecated element's description starts with (MCP tools/list; manifest). */
export function deprecationNotice(d: ContractDeprecation): string {
  const use = d.replacement === undefined ? '' : `; use ${replacementLabel(d.replacement)} instead`;
  return `Deprecated since ${d.since}; sunset ${d.sunset}${use}. See ${d.link}`;
}

/** The headers as the OpenAPI document describes them (info.description, "Versioning"). */
export const CONTRACT_HEADERS_MARKDOWN = [
  `Every answer (errors, 404 of unknown paths, OPTIONS and POST /mcp included) carries ` +
    `\`${CONTRACT_VERSION_HEADER}: ${API_VERSION}\`, the version label of this document (\`info.version\`).`,
  'An answer of a deprecated operation also carries `Deprecation: @<unix seconds>` (RFC 9745: since when), ' +
    '`Sunset: <HTTP-date>` (RFC 8594: the earliest moment it may stop answering, never before the ' +
    'deprecation) and `Link: <url>; rel="deprecation"` (its documentation); with a replacement operation, ' +
    'also `Link: </openapi.json#/paths/…/<method>>; rel="successor-version"`. A deprecated MCP tool ' +
    'says so at the start of its description and in `_meta.deprecated` of tools/list. Today nothing is deprecated.',
].join('\n\n');
