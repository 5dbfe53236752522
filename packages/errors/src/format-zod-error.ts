import type { z } from 'zod';

/** At most this many issues are spelled out; a huge invalid array must not make a huge message. */
const MAX_ISSUES = 10;
/** Keys echoed back from client input are cut to this many characters. */
const MAX_KEY_LENGTH = 64;

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

/**
 * zod's own English messages start like this. Those are rewritten into one consistent wording;
 * any other message was written by a schema author (e.g. "must be a registrable domain") and is
 * kept as is.
 */
const ZOD_DEFAULT_MESSAGE = /^(?:Invalid|Too small|Too big|Unrecognized key)/;

const ARTICLES: Record<string, string> = {
  int: 'an integer',
  integer: 'an integer',
  object: 'an object',
  array: 'an array',
  undefined: 'undefined',
  null: 'null',
};

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  guid: 'a UUID',
  datetime: 'an ISO 8601 date-time',
  date: 'an ISO 8601 date',
  time: 'an ISO 8601 time',
  duration: 'an ISO 8601 duration',
  email: 'an email address',
  url: 'a URL',
  hostname: 'a hostname',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'base64 text',
};

function quote(text: string): string {
  const cut = text.length > MAX_KEY_LENGTH ? `${text.slice(0, MAX_KEY_LENGTH)}…` : text;
  return JSON.stringify(cut);
}

function typeName(name: string): string {
  return ARTICLES[name] ?? `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** `input.apex`, `observations[3].hostname`, `headers["x-key"]`; prefix first when given. */
export function formatIssuePath(path: readonly PathSegment[], prefix?: string): string {
  let out = prefix ?? '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment))
      out += out ? `.${segment}` : segment;
    else out += `[${quote(String(segment))}]`;
  }
  return out;
}

function sizeMessage(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const bound = String(small ? issue.minimum : issue.maximum);
  const amount = issue.exact ? 'exactly' : small ? 'at least' : 'at most';
  if (issue.origin === 'string') return `must be ${amount} ${bound} characters long`;
  if (issue.origin === 'array' || issue.origin === 'set') return `must have ${amount} ${bound} items`;
  if (issue.inclusive === false && !issue.exact) return `must be ${small ? 'greater' : 'less'} than ${bound}`;
  return `must be ${amount} ${bound}`;
}

function formatMessage(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') {
    return `must match ${issue.pattern.replace(/^\/(.*)\/[a-z]*$/, '$1')}`;
  }
  if (issue.format === 'starts_with' && 'prefix' in issue)
    return `must start with ${quote(String(issue.prefix))}`;
  if (issue.format === 'ends_with' && 'suffix' in issue)
    return `must end with ${quote(String(issue.suffix))}`;
  if (issue.format === 'includes' && 'includes' in issue)
    return `must include ${quote(String(issue.includes))}`;
  return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
}

/** zod's default wording for one issue rewritten; undefined when we have nothing better. */
function rewrite(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      const received = /received (\S+)$/.exec(issue.message)?.[1];
      if (received === 'undefined') return 'required';
      const expected = `must be ${typeName(issue.expected)}`;
      return received ? `${expected}, got ${received}` : expected;
    }
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue);
    case 'invalid_format':
      return formatMessage(issue);
    case 'invalid_value': {
      const values = issue.values.map((v) => (typeof v === 'string' ? quote(v) : String(v)));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(', ')}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      // A discriminated union whose tag matched no option reports the options it accepts.
      if ('options' in issue && Array.isArray(issue.options)) {
        return `must be one of ${issue.options.map((v: unknown) => (typeof v === 'string' ? quote(v) : String(v))).join(', ')}`;
      }
      return 'does not match any accepted shape';
    case 'invalid_key':
      return 'is not an accepted property name';
    case 'invalid_element':
      return 'has an invalid element';
    default:
      return undefined;
  }
}

/** One issue -> one or more `[path, message]` pairs (unknown keys give one pair per key). */
function describe(issue: Issue): Array<[readonly PathSegment[], string]> {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => [issue.path, `unknown property ${quote(key)}`]);
  }
  // Authored messages (refinements, custom errors) are kept verbatim.
  if (issue.code === 'custom' || !ZOD_DEFAULT_MESSAGE.test(issue.message))
    return [[issue.path, issue.message]];
  return [[issue.path, rewrite(issue) ?? issue.message]];
}

/**
 * One readable line for API consumers: `path: message` per problem, joined by "; ", e.g.
 * `input.apex: must be a registrable domain; limit: must be at most 1000; input: unknown property "foo"`.
 * `prefix` names where the validated value came from (`query`, `input`, `body`). Messages authored
 * in schemas are kept; zod's defaults get one consistent wording. Values sent by the client are
 * never echoed (only its unknown key names, quoted and cut to 64 characters).
 */
export function formatZodError(error: z.ZodError, prefix?: string): string {
  const parts = error.issues.flatMap(describe).map(([path, message]) => {
    const where = formatIssuePath(path, prefix);
    return where ? `${where}: ${message}` : message;
  });
  if (parts.length === 0) return prefix ? `${prefix}: invalid` : 'invalid';
  const shown = parts.slice(0, MAX_ISSUES).join('; ');
  return parts.length > MAX_ISSUES ? `${shown}; and ${parts.length - MAX_ISSUES} more` : shown;
}
