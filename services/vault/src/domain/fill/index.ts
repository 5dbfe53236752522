export {
  FILL_LIMITS,
  type FillInput,
  type FillResult,
  fillTemplate,
  type TemplateContentType,
} from './fill-template';
export { escapeHtml } from './text-template';
export { unicodeFonts as preloadFillFonts } from './unicode-fonts';
