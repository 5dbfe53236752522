import { defineCapability } from '../define';
import { WhoisInput } from './schema';

/**
 * `whois` (describe_only, spec §2.1: "quote and run are blocked"): listed so that searches for
 * "whois" or "registrar" find it and clients can read its input and price ahead of time; this
 * build has no handler for it (and the type refuses one). The description says so, so nobody
 * tries to quote it.
 *
 * Words for the full-text index: "whois", "rdap", "registrar", "domain registration", "expiry".
 */
export const whois = defineCapability({
  slug: 'whois',
  name: 'WHOIS domain registration lookup',
  description:
    'Look up who registered a domain: the WHOIS registration record of a registrable domain, with its registrar, ' +
    'registration and expiry dates, ' +
    'name servers and status. Listed for discovery only: it cannot be quoted or run yet (describe_only); ' +
    'describe it again later to see whether it has become available. Price once available: USD 0.001 per lookup.',
  category: 'network',
  tags: ['whois', 'rdap', 'registrar', 'registration', 'domain', 'expiry', 'nameservers', 'dns'],
  version: '1.0.0',
  pricing: { model: 'flat', currency: 'USD', price_usd: '0.001', description: 'USD 0.001 per lookup.' },
  execution: { machine_run_status: 'describe_only', runtime: 'node', mode: 'sync' },
  input: WhoisInput,
});
