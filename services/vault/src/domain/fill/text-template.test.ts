import { ValidationError } from '@svc/errors';
import { fillTemplate } from './fill-template';
import { TEXT_TEMPLATE_MAX_BYTES } from './text-template';

const known = new Set(['full_name', 'iban', 'city', 'secret_field', 'middle_name']);
const values = new Map([
  ['full_name', 'Zoë "Ø" <Şahin> & Co\'s'],
  ['iban', 'DE89370400440532013000'],
  ['city', '東京'],
  // Passed by mistake: the list below does not allow it, so it must never be placed.
  ['secret_field', 'MARKER-SECRET-7731'],
]);
const allowed = new Set(['full_name', 'iban', 'city', 'middle_name', 'nickname']);

async function fill(text: string, contentType: 'text/plain' | 'text/markdown' | 'text/html') {
  const result = await fillTemplate({
    template: Buffer.from(text, 'utf8'),
    contentType,
    values,
    allowed,
    known,
  });
  return {
    text: new TextDecoder().decode(result.bytes),
    report: result.report,
    contentType: result.contentType,
  };
}

async function rejection(template: Uint8Array, contentType: 'text/plain' | 'text/html' = 'text/plain') {
  const err = await fillTemplate({ template, contentType, values, allowed, known }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).status).toBe(422);
  return (err as ValidationError).message;
}

describe('fillTemplate (text, Markdown, HTML)', () => {
  it('fills placeholders, spaced or not, repeated ones every time, and reports each name once', async () => {
    const template =
      'Name: {{full_name}}\nIBAN: {{ iban }} / {{\tiban\t}}\nCity: {{city}}\n' +
      'Secret: [{{secret_field}}] Other: [{{favourite_colour}}] Middle: [{{ middle_name }}] Nick: [{{nickname}}]\n';
    const { text, report, contentType } = await fill(template, 'text/plain');
    expect(contentType).toBe('text/plain');
    expect(text).toBe(
      'Name: Zoë "Ø" <Şahin> & Co\'s\nIBAN: DE89370400440532013000 / DE89370400440532013000\nCity: 東京\n' +
        'Secret: [] Other: [] Middle: [] Nick: []\n',
    );
    expect(report).toEqual({
      filled: ['full_name', 'iban', 'city'],
      // nickname is allowed but not a field of this vault: unknown wins over empty.
      unknown: ['favourite_colour', 'nickname'],
      not_allowed: ['secret_field'],
      empty: ['middle_name'],
    });
    expect(text).not.toContain('MARKER-SECRET');
  });

  it('leaves anything that is not a placeholder as written', async () => {
    const template =
      '{{ IBAN }} {{a.b}} {{#each x}} {{}} { {iban} } {{iban}x}} {{iban\n}} {{' +
      'a'.repeat(65) +
      '}} {{{iban}}}';
    const { text, report } = await fill(template, 'text/plain');
    expect(text).toBe(
      '{{ IBAN }} {{a.b}} {{#each x}} {{}} { {iban} } {{iban}x}} {{iban\n}} {{' +
        'a'.repeat(65) +
        '}} {DE89370400440532013000}',
    );
    expect(report.filled).toEqual(['iban']);
  });

  it('does not read placeholders inside values', async () => {
    const result = await fillTemplate({
      template: Buffer.from('{{full_name}}|{{iban}}'),
      contentType: 'text/plain',
      values: new Map([
        ['full_name', '{{iban}} {{secret_field}}'],
        ['iban', 'X'],
      ]),
      allowed,
      known,
    });
    expect(new TextDecoder().decode(result.bytes)).toBe('{{iban}} {{secret_field}}|X');
    expect(result.report.not_allowed).toEqual([]);
  });

  it('escapes values in HTML, and only the values', async () => {
    const { text } = await fill('<p title="{{full_name}}">{{ full_name }}</p><b>{{city}}</b>', 'text/html');
    const escaped = 'Zoë &quot;Ø&quot; &lt;Şahin&gt; &amp; Co&#39;s';
    expect(text).toBe(`<p title="${escaped}">${escaped}</p><b>東京</b>`);
  });

  it('places values in Markdown as written', async () => {
    const { text, contentType } = await fill('# {{full_name}}\n\n- IBAN: `{{iban}}`\n', 'text/markdown');
    expect(contentType).toBe('text/markdown');
    expect(text).toBe('# Zoë "Ø" <Şahin> & Co\'s\n\n- IBAN: `DE89370400440532013000`\n');
  });

  it('drops a byte-order mark and keeps the rest byte for byte', async () => {
    const { text } = await fill('\uFEFFcafé {{city}}\r\n', 'text/plain');
    expect(text).toBe('café 東京\r\n');
  });

  it('never places a value whose name the list does not allow, even when it is passed', async () => {
    const result = await fillTemplate({
      template: Buffer.from('{{secret_field}}'),
      contentType: 'text/plain',
      values,
      allowed: new Set(['iban']),
      known,
    });
    expect(new TextDecoder().decode(result.bytes)).toBe('');
    expect(result.report.not_allowed).toEqual(['secret_field']);
  });

  it('refuses text that is not UTF-8, holds a NUL, or is larger than 1 MiB', async () => {
    expect(await rejection(Uint8Array.from([0x68, 0x69, 0xff, 0xfe, 0x41]))).toBe(
      'template is not valid UTF-8 text',
    );
    expect(await rejection(Buffer.from('%PDF-1.7\n\u0000binary'), 'text/html')).toBe(
      'template text contains a NUL character',
    );
    const big = Buffer.alloc(TEXT_TEMPLATE_MAX_BYTES + 1, 0x61);
    expect(await rejection(big)).toMatch(/^template is larger than 1048576 bytes/);
    // The limit itself is fine.
    const atLimit = await fillTemplate({
      template: Buffer.alloc(TEXT_TEMPLATE_MAX_BYTES, 0x61),
      contentType: 'text/plain',
      values,
      allowed,
      known,
    });
    expect(atLimit.bytes.byteLength).toBe(TEXT_TEMPLATE_MAX_BYTES);
  });

  it('names no value in an error', async () => {
    const message = await rejection(
      Buffer.concat([Buffer.from('{{iban}} DE89370400440532013000 '), Buffer.from([0xc3])]),
    );
    expect(message).not.toContain('DE89');
  });
});
