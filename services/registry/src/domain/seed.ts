import type { CapabilityManifest, EventPayloadInput } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { sha256Hex } from './manifest-hash';
import { type CapabilityRowData, manifestToRow } from './records';

/** Publishes `catalog.changed` (a port: adapters/catalog-events.ts implements it on the bus). */
export type PublishCatalogChanged = (event: EventPayloadInput<'catalog.changed'>) => Promise<void>;

export interface SeedOptions {
  prisma: PrismaClient;
  /** Where `catalog.changed` goes after a change (gateways drop their cached lists on it). */
  publishCatalogChanged: PublishCatalogChanged;
  logger: Pick<Logger, 'info' | 'warn'>;
  manifests: readonly CapabilityManifest[];
}

export interface SeedResult {
  inserted: string[];
  updated: string[];
  unchanged: string[];
  /** Slugs in the database that no manifest in code describes any more (kept, see below). */
  orphaned: string[];
  /** Catalog version published with `catalog.changed`; null when nothing changed (nothing published). */
  publishedVersion: string | null;
}

/**
 * Brings registry.capabilities in line with the manifests in code, on every start:
 * - a new slug is inserted; a slug whose manifest hash differs is updated; an unchanged row is not
 *   written at all (its updated_at keeps meaning "last real change");
 * - rows whose manifest left the code are NOT deleted: runs, receipts and clients that described
 *   the slug may still refer to it, and a deploy that drops a manifest by mistake must not erase a
 *   capability. They are logged as a warning; retiring one is a deliberate operator action.
 *
 * Safe with several replicas starting at once: each write is one conditional statement
 * (INSERT … ON CONFLICT DO NOTHING, UPDATE … WHERE manifest_hash <> new), so exactly one replica
 * wins each change and only the winner reports it; the others see "unchanged" and publish nothing.
 * Two replicas running DIFFERENT code (a rolling deploy) would each write their own version; the
 * last one to start wins, which is the version being rolled out.
 */
export async function seedCatalog({
  prisma,
  publishCatalogChanged,
  logger,
  manifests,
}: SeedOptions): Promise<SeedResult> {
  const rows = manifests.map(manifestToRow);
  assertUniqueSlugs(rows);

  const stored = await prisma.capability.findMany({ select: { slug: true, manifestHash: true } });
  const storedHash = new Map(stored.map((row) => [row.slug, row.manifestHash]));

  const missing = rows.filter((row) => !storedHash.has(row.slug));
  const inserted = await insertMissing(prisma, missing);
  // Changed rows, plus new ones another replica inserted between our read and our insert (their
  // content may be a different code version: the conditional update settles it).
  const toUpdate = rows.filter((row) => {
    const hash = storedHash.get(row.slug);
    return hash === undefined ? !inserted.includes(row.slug) : hash !== row.manifestHash;
  });
  const updated: string[] = [];
  for (const row of toUpdate) {
    const { slug, ...data } = row;
    const { count } = await prisma.capability.updateMany({
      where: { slug, manifestHash: { not: row.manifestHash } },
      data,
    });
    if (count > 0) updated.push(slug);
  }

  const changed = new Set([...inserted, ...updated]);
  const unchanged = rows.map((row) => row.slug).filter((slug) => !changed.has(slug));
  const inCode = new Set(rows.map((row) => row.slug));
  const orphaned = stored.map((row) => row.slug).filter((slug) => !inCode.has(slug));
  if (orphaned.length > 0) {
    logger.warn(
      { slugs: orphaned },
      'capabilities in the database have no manifest in code; kept as they are',
    );
  }

  let publishedVersion: string | null = null;
  if (changed.size > 0) {
    publishedVersion = await catalogVersion(prisma);
    await announce(publishCatalogChanged, logger, publishedVersion, [...changed].sort());
  }
  logger.info(
    { inserted, updated, unchanged: unchanged.length, orphaned: orphaned.length, version: publishedVersion },
    'catalog seeded',
  );
  return { inserted, updated, unchanged, orphaned, publishedVersion };
}

/**
 * Publishes `catalog.changed`. A failure (Redis down) is logged, not fatal: the rows are already
 * committed, pub/sub is lossy anyway and gateways also expire their cache on a TTL of their own
 * (eventCatalog), so refusing to start over a lost hint would only add an outage.
 */
async function announce(
  publish: PublishCatalogChanged,
  logger: SeedOptions['logger'],
  version: string,
  slugs: string[],
): Promise<void> {
  try {
    await publish({ version, changed_slugs: slugs });
  } catch (err) {
    logger.warn(
      { err: err instanceof Error ? err.message : String(err), slugs },
      'catalog.changed not published',
    );
  }
}

async function insertMissing(prisma: PrismaClient, rows: CapabilityRowData[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const created = await prisma.capability.createManyAndReturn({
    data: rows,
    skipDuplicates: true,
    select: { slug: true },
  });
  return created.map((row) => row.slug);
}

/**
 * Opaque catalog version for `catalog.changed`: SHA-256 over every (slug, manifest_hash) pair in
 * slug order. Every replica computes the same value for the same catalog, whoever seeded it, and
 * it changes with any visible change (the hash covers everything a client sees).
 */
export async function catalogVersion(prisma: PrismaClient): Promise<string> {
  const all = await prisma.capability.findMany({
    select: { slug: true, manifestHash: true },
    orderBy: { slug: 'asc' },
  });
  return sha256Hex(all.map((row) => [row.slug, row.manifestHash])).slice(0, 32);
}

function assertUniqueSlugs(rows: readonly CapabilityRowData[]): void {
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.slug)) throw new Error(`two manifests share the slug "${row.slug}"`);
    seen.add(row.slug);
  }
}
