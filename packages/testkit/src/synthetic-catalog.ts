import type { PrismaClient } from '@svc/db';

/**
 * Inserts `count` synthetic capabilities (`synthetic-1` …) straight into `registry.capabilities`, in
 * one statement, for tests and benchmarks of search at catalog scale. The vocabulary varies (a
 * rotating pool of real words plus per-row words) so ANALYZE's statistics look like a real
 * catalog's, not one repeated row. Call `VACUUM ANALYZE registry.capabilities` afterwards: a bulk
 * insert sits in the GIN index's pending list until then.
 */
export async function insertSyntheticCapabilities(prisma: PrismaClient, count: number): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO registry.capabilities (slug, name, description, category, tags, version, pricing,
      file_requirements, execution, machine_run_status, runtime, input_schema, manifest_hash, updated_at)
    SELECT
      'synthetic-' || i,
      initcap((ARRAY['convert', 'resize', 'translate', 'summarize', 'validate', 'compress', 'parse', 'render'])[1 + i % 8])
        || ' ' || (ARRAY['invoice', 'spreadsheet', 'audio', 'video', 'email', 'calendar', 'receipt', 'contract', 'chart', 'map', 'font'])[1 + i % 11]
        || ' w' || (i % 997),
      'Synthetic capability number ' || i || ' that handles ' ||
        (ARRAY['invoice', 'spreadsheet', 'audio', 'video', 'email', 'calendar', 'receipt', 'contract', 'chart', 'map', 'font'])[1 + i % 11]
        || ' files for batch jobs, word v' || (i % 503) || ' and u' || (i % 211) || '.',
      (ARRAY['documents', 'data', 'media', 'web', 'privacy', 'network'])[1 + i % 6],
      ARRAY['synthetic', 't' || (i % 101)],
      '1.0.0',
      '{"model": "free", "currency": "USD", "description": "Free."}'::jsonb,
      '{"accepts_files": false, "min_files": 0, "max_files": 0, "max_size_bytes": null, "content_types": []}'::jsonb,
      '{"machine_run_status": "supported", "runtime": "node", "mode": "sync"}'::jsonb,
      'supported',
      'node',
      '{"type": "object", "properties": {"text": {"type": "string"}}, "additionalProperties": false}'::jsonb,
      md5(i::text),
      now()
    FROM generate_series(1, ${count}::int) AS i`;
}
