import type { ListCapabilitiesQuery, ListCapabilitiesResponse } from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import { z } from 'zod';
import { toCapabilitySummary } from './records';

/**
 * Catalog search (spec §4.1): PostgreSQL full-text search over `search_vector` (generated from
 * name + slug words (weight A), category + tags (B), description (C); GIN-indexed).
 *
 * Query semantics: the natural-language `q` becomes an OR of its stemmed lexemes. The english
 * config already drops stop words ("for", "my"), but AND semantics (plainto/websearch_to_tsquery)
 * would still require every remaining word: "find subdomains" would miss crt unless its text said
 * "find", and each extra word a user adds could only shrink the result. With OR, every capability
 * sharing a word matches and the ranking sorts them: cover density (ts_rank_cd) rewards documents
 * that contain more of the query's words, more often and in heavier fields.
 *
 * Building the tsquery: the text goes through to_tsvector('english', q) (the same parser and
 * stemmer as the index), then strip()::text renders its distinct lexemes as quoted literals
 * ('certif' 'domain', quotes and backslashes inside a lexeme escaped by PostgreSQL itself), and
 * joining them with ' | ' gives a valid tsquery text (the parser never puts a space inside a
 * lexeme, so quote-space-quote only ever separates two lexemes). User text is never parsed as
 * tsquery syntax, so `& | ! ( ) :* '` are just punctuation, and it is only ever a bound
 * parameter. A q made of stop
 * words only has no lexemes: NULLIF turns the empty text into a NULL tsquery, `@@ NULL` matches
 * nothing and the answer is an empty list (not an error, no "doesn't contain lexemes" notice).
 * Every function involved is IMMUTABLE, so the planner folds the expression to a constant and
 * estimates its selectivity from the column statistics: a selective query uses the GIN index
 * (Bitmap Index Scan), a query matching most of the table scans it (cheaper there).
 *
 * The slug is part of the A-weighted text (hyphens as spaces), so "crt" finds crt through the index
 * as well; no separate prefix match on the slug is needed (and a LIKE prefix would need a second,
 * non-GIN index for little gain).
 */

/** ts_rank_cd normalization 32: rank / (rank + 1), so relevance is in [0, 1). */
const RANK_NORMALIZATION = 32;
/** Decimal places of `relevance` on the wire: enough to order, no float noise. */
const RELEVANCE_DECIMALS = 4;

/** The row a search returns: the summary columns under their Prisma names, plus the rank. */
const SearchRow = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()).nullable(),
  version: z.string(),
  pricing: z.unknown(),
  fileRequirements: z.unknown(),
  execution: z.unknown(),
  machineRunStatus: z.string(),
  runtime: z.string(),
  updatedAt: z.date(),
  rank: z.number().nullable(),
});

/** The OR-of-lexemes tsquery for `q`, or NULL when `q` has no lexemes (see above). */
function tsqueryOf(q: string): Prisma.Sql {
  // ''' ''' and ''' | ''' are the SQL literals ' ' and ' | ' (quote-space-quote between lexemes).
  return Prisma.sql`NULLIF(replace(strip(to_tsvector('english'::regconfig, ${q}::text))::text, ''' ''', ''' | '''), '')::tsquery`;
}

const COLUMNS = Prisma.sql`slug, name, description, category, tags, version, pricing,
  file_requirements AS "fileRequirements", execution, machine_run_status AS "machineRunStatus",
  runtime, updated_at AS "updatedAt"`;

/**
 * The exact statement `searchCapabilities` runs, exposed so a test can EXPLAIN it. Parameters are
 * bound (Prisma tagged templates), never concatenated.
 */
export function searchSql(query: ListCapabilitiesQuery): Prisma.Sql {
  const category = query.category === undefined ? Prisma.empty : Prisma.sql`AND category = ${query.category}`;
  if (query.q === undefined) {
    return Prisma.sql`SELECT ${COLUMNS}, NULL::float8 AS rank
      FROM registry.capabilities
      WHERE TRUE ${category}
      ORDER BY slug
      LIMIT ${query.limit}`;
  }
  const tsquery = tsqueryOf(query.q);
  return Prisma.sql`SELECT ${COLUMNS}, ts_rank_cd(search_vector, ${tsquery}, ${RANK_NORMALIZATION}::int)::float8 AS rank
    FROM registry.capabilities
    WHERE search_vector @@ ${tsquery} ${category}
    ORDER BY rank DESC, slug
    LIMIT ${query.limit}`;
}

export async function searchCapabilities(
  prisma: PrismaClient,
  query: ListCapabilitiesQuery,
): Promise<ListCapabilitiesResponse> {
  const raw = await prisma.$queryRaw<unknown[]>(searchSql(query));
  const rows = z.array(SearchRow).parse(raw);
  const capabilities = rows.map((row) => {
    const summaryRow = { ...row, tags: row.tags ?? [] };
    return query.q === undefined
      ? toCapabilitySummary(summaryRow)
      : toCapabilitySummary(summaryRow, round(row.rank ?? 0));
  });
  return {
    ok: true,
    capabilities,
    count: capabilities.length,
    query: { q: query.q ?? null, category: query.category ?? null, limit: query.limit },
  };
}

function round(rank: number): number {
  const factor = 10 ** RELEVANCE_DECIMALS;
  return Math.round(rank * factor) / factor;
}
