import type { ApiOperation } from '@svc/contracts';

/**
 * The gateway's one path table, made from the operations it serves (contracts `apiOperations`,
 * each mounted by route() or rawRoute()): every request is matched against it once, at the top of
 * the app (serve-routes.ts), and the match tells the contract headers, the rate limiter, the body
 * pace watch and the dispatcher which operation it is. Matching follows express's defaults, which
 * the routes had before: letter case ignored, one trailing slash allowed, a parameter is one
 * non-empty segment, a literal path wins over a template that also covers it.
 */

/** The methods an operation may have, in the order `Allow` lists them. */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

type Segment =
  | { readonly kind: 'literal'; readonly text: string; readonly lower: string; readonly exact: boolean }
  | { readonly kind: 'param'; readonly name: string };

/** One path template and what is served there, per method. */
export interface PathEntry<R> {
  /** The operations' path template, e.g. `/api/capabilities/{slug}`. */
  readonly template: string;
  /** The template as the request metrics name it (`/api/capabilities/:slug`). */
  readonly metricsLabel: string;
  /** `Allow` of a 405 or OPTIONS answer: the methods served, HEAD with GET, and OPTIONS. */
  readonly allow: string;
  readonly byMethod: ReadonlyMap<string, R>;
  readonly segments: readonly Segment[];
}

/** What a request matched: an operation, or only its path; with the path parameters as sent. */
export type RouteMatch<R> = (
  | { readonly kind: 'operation'; readonly route: R; readonly entry: PathEntry<R> }
  | { readonly kind: 'path'; readonly entry: PathEntry<R> }
) & {
  /** Path parameters as sent (still percent-encoded): decoded where the route runs. */
  readonly rawParams: Readonly<Record<string, string>>;
};

type Part =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string };

function parseTemplate(template: string): Part[] {
  return template
    .split('/')
    .slice(1)
    .map((segment): Part => {
      const param = /^\{([^}]+)\}$/.exec(segment)?.[1];
      return param === undefined ? { kind: 'literal', text: segment } : { kind: 'param', name: param };
    });
}

function isMethod(method: string): method is Method {
  return METHODS.some((m) => m === method);
}

/**
 * Whether another template has a parameter at `index` and would otherwise match `parts` (the crt
 * run's `/api/capabilities/crt/run` under `/api/capabilities/{slug}/run`). Such a literal is matched
 * in its own letter case only: `/CRT/run` is the slug `CRT` of the generic run, which refuses it
 * (422), as the crt route's case-sensitive router did.
 */
function shadowsParameter(
  parts: readonly Part[],
  index: number,
  others: readonly (readonly Part[])[],
): boolean {
  const covers = (other: readonly Part[]) =>
    other !== parts &&
    other.length === parts.length &&
    other[index]?.kind === 'param' &&
    other.every((o, i) => {
      const mine = parts[i];
      return (
        o.kind === 'param' || (mine?.kind === 'literal' && mine.text.toLowerCase() === o.text.toLowerCase())
      );
    });
  return others.some(covers);
}

function pathEntry<R>(
  template: string,
  byMethod: ReadonlyMap<string, R>,
  parts: readonly Part[],
  all: readonly (readonly Part[])[],
): PathEntry<R> {
  const served = METHODS.filter((m) => byMethod.has(m)).map((m) => m.toUpperCase());
  if (served.includes('GET')) served.push('HEAD');
  served.push('OPTIONS');
  return {
    template,
    metricsLabel: parts.map((p) => `/${p.kind === 'param' ? `:${p.name}` : p.text}`).join(''),
    allow: served.join(', '),
    byMethod,
    segments: parts.map(
      (part, index): Segment =>
        part.kind === 'param'
          ? part
          : { ...part, lower: part.text.toLowerCase(), exact: shadowsParameter(parts, index, all) },
    ),
  };
}

/** A literal path wins over a template (per segment, left to right), as express's mount order did. */
function compareRank<R>(a: PathEntry<R>, b: PathEntry<R>): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i += 1) {
    const diff = Number(a.segments[i]?.kind === 'param') - Number(b.segments[i]?.kind === 'param');
    if (diff !== 0) return diff;
  }
  return a.segments.length - b.segments.length;
}

export class RouteTable<R extends { readonly operation: ApiOperation }> {
  private readonly entries: readonly PathEntry<R>[];

  constructor(routes: readonly R[]) {
    const byTemplate = new Map<string, Map<string, R>>();
    for (const route of routes) {
      const { method, path, operationId } = route.operation;
      const methods = byTemplate.get(path) ?? new Map<string, R>();
      if (methods.has(method))
        throw new Error(`${operationId}: ${method.toUpperCase()} ${path} is served twice`);
      methods.set(method, route);
      byTemplate.set(path, methods);
    }
    const templates = [...byTemplate].map(([template, byMethod]) => ({
      template,
      byMethod,
      parts: parseTemplate(template),
    }));
    const all = templates.map(({ parts }) => parts);
    this.entries = templates
      .map(({ template, byMethod, parts }) => pathEntry(template, byMethod, parts, all))
      .sort(compareRank);
  }

  /**
   * The operation serving `method` at `path` (express's `req.path`: no query string). HEAD is
   * served as GET. A path some operation serves but not with this method (OPTIONS included) is a
   * `path` match: 405 or 204 with `Allow`. Undefined: no operation's path (404).
   */
  match(method: string, path: string): RouteMatch<R> | undefined {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const segments = trimmed.split('/').slice(1);
    const wanted = method === 'HEAD' ? 'get' : method.toLowerCase();
    for (const entry of this.entries) {
      const rawParams = matchSegments(entry.segments, segments);
      if (rawParams === undefined) continue;
      const route = isMethod(wanted) ? entry.byMethod.get(wanted) : undefined;
      return route === undefined
        ? { kind: 'path', entry, rawParams }
        : { kind: 'operation', route, entry, rawParams };
    }
    return undefined;
  }
}

function matchSegments(
  template: readonly Segment[],
  segments: readonly string[],
): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i += 1) {
    const want = template[i];
    const got = segments[i] ?? '';
    if (want === undefined) return undefined;
    if (want.kind === 'param') {
      if (got === '') return undefined;
      params[want.name] = got;
    } else if (want.exact ? got !== want.text : got.toLowerCase() !== want.lower) {
      return undefined;
    }
  }
  return params;
}
