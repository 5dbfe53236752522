import { CRT_MAX_LIMIT, CrtInput, CrtResult, Hostname, Uuid } from '@svc/contracts';
import { z } from 'zod';
import { defineCapability } from '../define';
import { crtEnv } from './env';

/**
 * `crt` (spec §1.7, §2.6, §4.5): certificate-transparency hostnames for one registrable apex domain.
 * Its input and result stay in @svc/contracts: POST /api/crt/run names them in the public contract.
 *
 * The name, tags and description feed the full-text index (name and slug weigh most, then category
 * and tags, then the description), so they use the words people and agents actually type:
 * "certificates for my domain", "certificate transparency", "find subdomains", "ct logs", "crt"
 * (a tag as well as the slug, so crt outranks crt-batch-plan, whose slug also says crt).
 * The description also carries the spec's caveats: free, bounded, stored without expiry, and
 * observations do not prove that hosts are live (§1.7).
 */
export const crt = defineCapability({
  slug: 'crt',
  name: 'Certificate transparency hostnames',
  description:
    'Find the subdomains and hostnames of your domain that appear in public certificate transparency (CT) logs. ' +
    'Give one registrable apex domain (for example example.com; subdomains and public suffixes are rejected) and get ' +
    'the hostnames named in TLS/SSL certificates issued for it, optionally with the date each was first seen. ' +
    'Useful to inventory certificates for a domain, audit your attack surface or discover forgotten hosts. ' +
    'Returns at most 1000 observations (100 by default). Free. The apex and the observations are stored with the ' +
    'run without automatic expiry. Observations come from certificate logs and do not prove that a host is live.',
  category: 'security',
  tags: [
    'crt',
    'certificate',
    'certificates',
    'certificate-transparency',
    'transparency',
    'ct',
    'tls',
    'ssl',
    'subdomains',
    'hostnames',
    'dns',
    'domain',
    'recon',
  ],
  version: '1.0.0',
  pricing: { model: 'free', currency: 'USD', description: 'Free.' },
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'sync' },
  workload: 'io',
  input: CrtInput,
  result: CrtResult,
  env: crtEnv,
  job: {
    /**
     * One job per hand-over, job id `run-<run_id>-<n>` (the run's `job_id`). Provider retries and failover happen inside one attempt
     * (the provider clients); the job's attempts cover a worker that crashed or stalled mid-run (the
     * per-apex cache makes a repeat cheap). Outcomes travel as `orchestrator.reportRun` calls.
     */
    payload: z.object({
      run_id: Uuid,
      apex: Hostname,
      include_first_seen: z.boolean(),
      limit: z.number().int().min(1).max(CRT_MAX_LIMIT),
    }),
  },
  handler: () => import('./handler'),
});
