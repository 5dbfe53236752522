import type { CapabilityManifest } from '@svc/contracts';
import { z } from 'zod';

/**
 * Realistic neighbours for the manifests in code in search tests: each shares some words with them
 * ("domain", "find", "extract", "pdf", "text", "hostname"...) so the ranking, not mere matching,
 * decides. Their slugs differ from every manifest in code (seeding both at once must not collide).
 */
const noFiles = { accepts_files: false, min_files: 0, max_files: 0, max_size_bytes: null, content_types: [] };
const free = { model: 'free', currency: 'USD', description: 'Free.' } as const;
const sync = { machine_run_status: 'supported', runtime: 'node', mode: 'sync' } as const;

export const pdfOcrManifest: CapabilityManifest = {
  slug: 'pdf-ocr',
  name: 'PDF OCR for scanned documents',
  description:
    'Recognise the text of scanned PDF pages with OCR (optical character recognition), for PDFs that are ' +
    'images of paper. Upload one PDF file and get plain text per page.',
  category: 'documents',
  tags: ['pdf', 'ocr', 'scan', 'scanned', 'document'],
  version: '1.0.0',
  pricing: {
    model: 'per_unit',
    currency: 'USD',
    unit: 'page',
    unit_price_usd: '0.002',
    description: 'USD 0.002 per page.',
  },
  file_requirements: {
    accepts_files: true,
    min_files: 1,
    max_files: 1,
    max_size_bytes: 20_000_000,
    content_types: ['application/pdf'],
  },
  execution: { machine_run_status: 'requires_worker', runtime: 'python', mode: 'async' },
  input: z.object({ upload_id: z.string(), ocr: z.boolean().default(false) }).strict(),
};

export const imageConvertManifest: CapabilityManifest = {
  slug: 'image-convert',
  name: 'Image format conversion',
  description: 'Convert an uploaded image to another format: JPEG, PNG, GIF, TIFF or AVIF, keeping its size.',
  category: 'media',
  tags: ['image', 'convert', 'format', 'jpeg', 'png'],
  version: '1.0.0',
  pricing: free,
  file_requirements: {
    accepts_files: true,
    min_files: 1,
    max_files: 1,
    max_size_bytes: 10_000_000,
    content_types: ['image/*'],
  },
  execution: sync,
  input: z.object({ upload_id: z.string(), width: z.number().int().min(16).max(1024) }).strict(),
};

export const dnsLookupManifest: CapabilityManifest = {
  slug: 'dns-lookup',
  name: 'DNS records lookup',
  description:
    'Resolve the A, AAAA, MX, TXT and NS records of a hostname or domain from public DNS resolvers.',
  category: 'network',
  tags: ['dns', 'records', 'resolve', 'mx', 'nameserver'],
  version: '1.0.0',
  pricing: free,
  file_requirements: noFiles,
  execution: sync,
  input: z.object({ hostname: z.string(), types: z.array(z.string()).optional() }).strict(),
};

export const SYNTHETIC_MANIFESTS: readonly CapabilityManifest[] = [
  pdfOcrManifest,
  imageConvertManifest,
  dnsLookupManifest,
];
