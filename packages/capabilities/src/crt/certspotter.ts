import { z } from 'zod';
import {
  type CtProvider,
  collectingProvider,
  fetchProviderJsonArray,
  type ProviderSettings,
} from './ct-provider';
import { ProviderError } from './provider-error';
import { parseProviderTimestamp } from './timestamps';

export const CERTSPOTTER = 'certspotter';

/**
 * Pages read at most per run. Cert Spotter pages hold about a hundred issuances, so this covers
 * ~10,000 certificates; past it the answer is flagged truncated (the run deadline usually ends a
 * walk that long first).
 */
export const CERTSPOTTER_MAX_PAGES = 100;

/** The fields we read of one issuance (`expand=dns_names`); the hashes and `revoked` are ignored. */
const Issuance = z.object({
  dns_names: z.array(z.string()).optional(),
  not_before: z.string().nullish(),
});
/** Paging cursor: issuance ids are decimal strings (numbers accepted too). */
const IssuanceId = z.object({ id: z.union([z.string().min(1), z.number()]) });

export interface CertSpotterSettings extends ProviderSettings {
  /** CERTSPOTTER_TOKEN: sent as `Authorization: Bearer …` only when set; never logged. */
  token?: string;
}

/**
 * Cert Spotter's issuances API: `GET <base>/v1/issuances?domain=<apex>&include_subdomains=true&
 * expand=dns_names`, then again with `&after=<last id>` until a page is empty. It has no CT log
 * timestamp: first_seen is the earliest `not_before` of a certificate naming the host (documented
 * in docs/decisions.md).
 */
export function certSpotterProvider(settings: CertSpotterSettings): CtProvider {
  const headers = settings.token ? { authorization: `Bearer ${settings.token}` } : undefined;

  return collectingProvider(CERTSPOTTER, settings, async ({ apex, base, budget, collector }) => {
    let bytes = 0;
    let after: string | undefined;
    for (let page = 1; page <= CERTSPOTTER_MAX_PAGES; page += 1) {
      const query = new URLSearchParams({ domain: apex, include_subdomains: 'true', expand: 'dns_names' });
      if (after !== undefined) query.set('after', after);
      let lastId: string | undefined;
      const onItem = (item: unknown) => {
        const id = IssuanceId.safeParse(item);
        if (id.success) lastId = String(id.data.id);
        const issuance = Issuance.safeParse(item);
        if (!issuance.success) return;
        const seenAt = parseProviderTimestamp(issuance.data.not_before);
        for (const name of issuance.data.dns_names ?? []) collector.addNames(name, seenAt);
      };
      const answer = await fetchProviderJsonArray(settings, budget, {
        url: `${base}/v1/issuances?${query.toString()}`,
        headers,
        maxBytes: settings.maxBytes - bytes,
        onItem,
      });
      bytes += answer.bytes;
      if (answer.truncated || bytes >= settings.maxBytes) return { truncated: true, bytes };
      if (answer.items === 0) return { truncated: false, bytes };
      // A page without a readable id (or one that repeats the cursor) cannot be continued.
      if (lastId === undefined || lastId === after)
        throw new ProviderError('page without a usable issuance id', { retryable: false });
      after = lastId;
    }
    return { truncated: true, bytes }; // page cap reached
  });
}
