import { type Capability, capabilityJobName } from '@svc/capabilities';
import type { Pricing } from '@svc/contracts';
import { code, table } from './markdown';

/** The `capabilities` region: one row per declaration of @svc/capabilities `CAPABILITIES`, in its order. */

function pricingText(pricing: Pricing): string {
  if (pricing.model === 'free') return 'free';
  if (pricing.model === 'flat') return `flat ${pricing.price_usd} USD`;
  const minimum = pricing.minimum_usd === undefined ? '' : ` (minimum ${pricing.minimum_usd} USD)`;
  return `${pricing.unit_price_usd} USD per ${pricing.unit}${minimum}`;
}

function filesText(capability: Capability): string {
  const files = capability.fileRequirements;
  if (!files.accepts_files) return '—';
  const count =
    files.min_files === files.max_files ? `${files.min_files}` : `${files.min_files}-${files.max_files}`;
  return `${count}: ${files.content_types.join(', ')}`;
}

/** The `capabilities` region. */
export function capabilitiesRegion(
  capabilities: readonly Capability[],
  jobQueue: (job: string) => string,
): string {
  const rows = capabilities.map((capability) => {
    const job = capabilityJobName(capability.slug);
    const env = capability.runnable ? Object.keys(capability.env ?? {}) : [];
    return [
      code(capability.slug),
      `${capability.name} (${capability.category})`,
      code(capability.execution.machine_run_status),
      `${capability.execution.runtime}, ${capability.execution.mode}`,
      pricingText(capability.pricing),
      filesText(capability),
      job === undefined ? '—' : code(jobQueue(job)),
      env.length === 0 ? '—' : env.map((name) => code(name)).join(', '),
    ];
  });
  return table(
    ['slug', 'name (category)', 'status', 'runtime, mode', 'pricing', 'files', 'queue', 'worker env'],
    rows,
  );
}
