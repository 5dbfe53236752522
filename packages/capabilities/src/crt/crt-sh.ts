import { z } from 'zod';
import {
  type CtProvider,
  collectingProvider,
  fetchProviderJsonArray,
  type ProviderSettings,
} from './ct-provider';
import { parseProviderTimestamp } from './timestamps';

export const CRT_SH = 'crt.sh';

/**
 * The fields we read of one crt.sh row (`output=json`); the others (issuer_ca_id, issuer_name, id,
 * not_after, serial_number, result_count) are ignored. Not strict: crt.sh adds fields over time.
 */
const CrtShRow = z.object({
  common_name: z.string().nullish(),
  // Several names separated by `\n` (the certificate's SANs).
  name_value: z.string().nullish(),
  // UTC without a zone, e.g. `2024-03-05T12:34:56.789`; null for some precertificates.
  entry_timestamp: z.string().nullish(),
  not_before: z.string().nullish(),
});

/**
 * crt.sh's JSON search: `GET <base>/?q=%25.<apex>&output=json` (`%25.` is the URL-encoded `%.`
 * wildcard: every name ending in `.<apex>`). One answer, no paging, possibly hundreds of MB: it is
 * streamed and cut at `maxBytes`. first_seen = the CT log entry time, else the certificate's
 * not_before.
 */
export function crtShProvider(settings: ProviderSettings): CtProvider {
  return collectingProvider(CRT_SH, settings, async ({ apex, base, budget, collector }) => {
    const onItem = (item: unknown) => {
      const row = CrtShRow.safeParse(item);
      if (!row.success) return; // a row we cannot read is skipped, not the whole answer
      const seenAt =
        parseProviderTimestamp(row.data.entry_timestamp) ?? parseProviderTimestamp(row.data.not_before);
      if (row.data.name_value) collector.addNames(row.data.name_value, seenAt);
      if (row.data.common_name) collector.addNames(row.data.common_name, seenAt);
    };
    const url = `${base}/?q=%25.${encodeURIComponent(apex)}&output=json`;
    const answer = await fetchProviderJsonArray(settings, budget, {
      url,
      maxBytes: settings.maxBytes,
      onItem,
    });
    return { truncated: answer.truncated, bytes: answer.bytes };
  });
}
