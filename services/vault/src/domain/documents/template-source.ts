import type { FillTemplate } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import type { VaultDeps } from '../deps';
import { FILL_LIMITS, type TemplateContentType } from '../fill';
import { readUploadedFile } from './uploaded-file';

export interface LoadedTemplate {
  bytes: Uint8Array;
  contentType: TemplateContentType;
  /** The name the filled document gets unless the request names one. */
  defaultFilename: string;
}

const INLINE_TYPES = {
  text: { contentType: 'text/plain', filename: 'filled.txt' },
  markdown: { contentType: 'text/markdown', filename: 'filled.md' },
  html: { contentType: 'text/html', filename: 'filled.html' },
} as const satisfies Record<string, { contentType: TemplateContentType; filename: string }>;

const TEMPLATE_TYPES: ReadonlySet<string> = new Set<TemplateContentType>([
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/html',
]);

function isTemplateType(contentType: string): contentType is TemplateContentType {
  return TEMPLATE_TYPES.has(contentType);
}

/**
 * The template's bytes: inline text as UTF-8, or a `vault-document` upload read from object
 * storage (PDF up to FILL_LIMITS.pdfMaxBytes, text types up to textMaxBytes; 422 beyond or for any
 * other content type). The filled document is named `filled-<upload's file name>` by default.
 */
export async function loadTemplate(
  deps: Pick<VaultDeps, 'uploads' | 'store'>,
  clientId: string,
  template: FillTemplate,
): Promise<LoadedTemplate> {
  if ('text' in template) {
    const inline = INLINE_TYPES[template.format];
    return {
      bytes: Buffer.from(template.text, 'utf8'),
      contentType: inline.contentType,
      defaultFilename: inline.filename,
    };
  }
  const { file, bytes } = await readUploadedFile(deps, clientId, template.upload_id, (type) =>
    type === 'application/pdf' ? FILL_LIMITS.pdfMaxBytes : FILL_LIMITS.textMaxBytes,
  );
  if (!isTemplateType(file.content_type)) {
    throw new ValidationError(
      `upload ${file.upload_id} is ${file.content_type}: templates are PDF, text/plain, text/markdown or text/html`,
    );
  }
  return { bytes, contentType: file.content_type, defaultFilename: filledName(file.filename) };
}

/** `filled-<name>`, kept within the 255 characters of a file name (the extension survives). */
function filledName(filename: string): string {
  const name = `filled-${filename}`;
  if (name.length <= 255) return name;
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 && filename.length - dot <= 16 ? filename.slice(dot) : '';
  return `filled-${filename.slice(0, 255 - 7 - extension.length)}${extension}`;
}
