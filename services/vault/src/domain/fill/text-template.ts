import { ValidationError } from '@svc/errors';
import type { FillReportBuilder } from './report';

/** bytes: largest text, Markdown or HTML template (the inline form allows 200 000 characters). */
export const TEXT_TEMPLATE_MAX_BYTES = 1024 * 1024;

/**
 * `{{name}}` with optional spaces or tabs inside the braces; the name follows the vault's field
 * name rule (VAULT_FIELD_NAME_PATTERN). Anything else between braces (`{{ Name }}`, `{{a.b}}`,
 * `{{#each}}`) is not a placeholder and stays as written. Names longer than 64 characters do not
 * match either (the trailing `[ \t]*}}` must follow at most 64 name characters).
 */
const PLACEHOLDER = /\{\{[ \t]*([a-z][a-z0-9_]{0,63})[ \t]*\}\}/g;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in HTML text and in quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** The template as text: UTF-8 (a BOM is dropped), no NUL, at most TEXT_TEMPLATE_MAX_BYTES. */
export function decodeTextTemplate(bytes: Uint8Array): string {
  if (bytes.byteLength > TEXT_TEMPLATE_MAX_BYTES) {
    throw new ValidationError(
      `template is larger than ${TEXT_TEMPLATE_MAX_BYTES} bytes (1 MiB), the text limit`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ValidationError('template is not valid UTF-8 text');
  }
  // A NUL marks a binary file declared as text (and no text format needs one).
  if (text.includes('\u0000')) throw new ValidationError('template text contains a NUL character');
  return text;
}

/**
 * Replaces every placeholder: a filled one by its value (HTML-escaped for `html`), any other by
 * the empty string — an unfilled placeholder must not survive into a document the client sends
 * on. Markdown values go in as written: escaping is context-dependent there (a value in a code
 * span would show the escapes), and the document is the client's own data.
 */
export function fillTextTemplate(text: string, html: boolean, report: FillReportBuilder): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    const value = report.resolve(name);
    if (value === undefined) return '';
    return html ? escapeHtml(value) : value;
  });
}
