import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { errorAnswer, type FakeCtBehaviour, type ParsedBehaviour, parseBehaviour } from './fake-ct/behaviour';
import { type CtDataset, certSpotterPage, exampleComDataset } from './fake-ct/datasets';
import { generatedDataset } from './fake-ct/generated-dataset';
import { streamHugeAnswer } from './fake-ct/huge-answer';

/**
 * Fake certificate-transparency providers on loopback for tests and the benchmark: crt.sh's JSON
 * API under `/crtsh` and Cert Spotter's issuances API under `/certspotter` on one port, so the
 * worker's CRT_SH_URL / CERTSPOTTER_URL point here. Answers are pre-serialised and cached per
 * request shape (the benchmark drives hundreds of requests per second); nothing is logged.
 */

/**
 * The read-only route of the fake's counters (`GET <base>/calls?provider=…&apex=…`): the shared test
 * platform runs its fake providers in its daemon, and suites read them from there.
 */
export const CALLS_PATH = '/calls';
/** Its answer. */
export const FakeCtCallsAnswer = z.object({ calls: z.number().int().min(0) });
export type FakeCtCallsAnswer = z.infer<typeof FakeCtCallsAnswer>;

export type FakeCtProvider = 'crt.sh' | 'certspotter';
/** `crtsh` is accepted as another spelling of `crt.sh` (the path segment). */
export type FakeCtProviderName = FakeCtProvider | 'crtsh';

export interface FakeCtProvidersOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Issuances per Cert Spotter page (default 100); `after=<id>` fetches the next page. */
  certSpotterPageSize?: number;
  /** Seconds in the `Retry-After` header of `status:429` and `status:503` answers (default 1). */
  retryAfterSeconds?: number;
}

export interface FakeCtRequest {
  provider: FakeCtProvider;
  /** Lowercased apex the request asked for (crt.sh `q` without `%.`, Cert Spotter `domain`). */
  apex: string;
  /** Path and query as received. */
  url: string;
  /** The Authorization header, or null when none was sent. */
  authorization: string | null;
}

export interface SetBehaviourOptions {
  /** Apply to this many requests, then answer `ok` again (default: until changed or reset). */
  times?: number;
}

export interface FakeCtProviders {
  /** `http://127.0.0.1:<port>`: where CALLS_PATH answers. */
  readonly baseUrl: string;
  /** `http://127.0.0.1:<port>/crtsh`: the worker's CRT_SH_URL. */
  readonly crtShUrl: string;
  /** `http://127.0.0.1:<port>/certspotter`: the worker's CERTSPOTTER_URL. */
  readonly certSpotterUrl: string;
  /** Requests a provider received (each Cert Spotter page counts), in total or for one apex. */
  calls(provider: FakeCtProviderName, apex?: string): number;
  /** The last 1 000 requests of a provider, oldest first. */
  requests(provider: FakeCtProviderName): readonly FakeCtRequest[];
  setBehaviour(provider: FakeCtProviderName, behaviour: FakeCtBehaviour, options?: SetBehaviourOptions): void;
  /** What both providers answer for `apex` (instead of the fixture or the generated data set). */
  setDataset(apex: string, dataset: CtDataset): void;
  /** Behaviours back to `ok`, counters and requests cleared, data sets from setDataset() dropped. */
  reset(): void;
  /** Stops the server, destroying open connections (a `hang` request does not hold it up). */
  close(): Promise<void>;
}

const DEFAULT_PAGE_SIZE = 100;
const MAX_CACHED_ANSWERS = 10_000;
const MAX_KEPT_REQUESTS = 1_000;

interface BehaviourState {
  behaviour: ParsedBehaviour;
  /** Requests left before it reverts to ok; null: no limit. */
  remaining: number | null;
}

interface Route {
  provider: FakeCtProvider;
  apex: string;
  /** Cache key of the `ok` answer. */
  key: string;
  /** Builds the `ok` body (called once per key while it stays cached). */
  build: () => unknown;
}

function canonical(provider: FakeCtProviderName): FakeCtProvider {
  return provider === 'crtsh' ? 'crt.sh' : provider;
}

class FakeCtServer {
  private readonly datasets = new Map<string, CtDataset>();
  /** Generated data sets by apex (bounded: the benchmark may ask for many apexes). */
  private readonly generated = new Map<string, CtDataset>();
  private readonly answers = new Map<string, Buffer>();
  private readonly behaviours = new Map<FakeCtProvider, BehaviourState>();
  private readonly counts = new Map<string, number>();
  private readonly log: Record<FakeCtProvider, FakeCtRequest[]> = { 'crt.sh': [], certspotter: [] };
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pageSize: number;
  private readonly retryAfterSeconds: number;

  constructor(options: FakeCtProvidersOptions) {
    this.pageSize = options.certSpotterPageSize ?? DEFAULT_PAGE_SIZE;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
    if (!Number.isInteger(this.pageSize) || this.pageSize < 1) {
      throw new RangeError('certSpotterPageSize must be a positive integer');
    }
  }

  dataset(apex: string): CtDataset {
    const set = this.datasets.get(apex) ?? this.generated.get(apex);
    if (set !== undefined) return set;
    const made = apex === 'example.com' ? exampleComDataset() : generatedDataset(apex);
    if (this.generated.size >= MAX_CACHED_ANSWERS) this.generated.clear();
    this.generated.set(apex, made);
    return made;
  }

  setDataset(apex: string, dataset: CtDataset): void {
    this.datasets.set(apex.toLowerCase(), dataset);
    this.answers.clear();
  }

  setBehaviour(provider: FakeCtProviderName, behaviour: FakeCtBehaviour, options: SetBehaviourOptions): void {
    const parsed = parseBehaviour(behaviour);
    const times = options.times ?? null;
    if (times !== null && (!Number.isInteger(times) || times < 1)) throw new RangeError('times must be ≥ 1');
    this.behaviours.set(canonical(provider), { behaviour: parsed, remaining: times });
  }

  calls(provider: FakeCtProviderName, apex?: string): number {
    const name = canonical(provider);
    return this.counts.get(apex === undefined ? name : `${name}|${apex.toLowerCase()}`) ?? 0;
  }

  requests(provider: FakeCtProviderName): readonly FakeCtRequest[] {
    return [...this.log[canonical(provider)]];
  }

  reset(): void {
    this.datasets.clear();
    this.answers.clear();
    this.behaviours.clear();
    this.counts.clear();
    this.log['crt.sh'] = [];
    this.log.certspotter = [];
  }

  clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === CALLS_PATH) {
      this.answerCalls(url, res);
      return;
    }
    const route = this.route(url);
    if (route === null || 'error' in route) {
      res.writeHead(route === null ? 404 : 400, { 'content-type': 'text/plain' });
      res.end(route === null ? 'not found\n' : `${route.error}\n`);
      return;
    }
    this.record(route, req);
    const behaviour = this.takeBehaviour(route.provider);
    switch (behaviour.kind) {
      case 'ok':
        this.answer(res, route);
        return;
      case 'hang':
        return; // never answered; close() destroys the socket
      case 'reset':
        req.socket.destroy();
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) this.answer(res, route);
        }, behaviour.ms);
        this.timers.add(timer);
        return;
      }
      case 'truncated': {
        const body = this.body(route);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body.subarray(0, Math.max(1, Math.floor(body.length / 2))));
        return;
      }
      case 'status':
        this.error(res, route.provider, behaviour.code);
        return;
      case 'huge':
        if (route.provider === 'certspotter' && url.searchParams.has('after')) {
          // The huge first page is the whole answer: the page after it is empty.
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
          res.end('[]');
          return;
        }
        void streamHugeAnswer(res, route.provider, route.apex, behaviour.bytes).catch(() => res.destroy());
        return;
    }
  }

  /** `GET /calls?provider=…[&apex=…]`: `{"calls": n}`, what calls() counts, for another process. */
  private answerCalls(url: URL, res: ServerResponse): void {
    const provider = url.searchParams.get('provider');
    if (provider !== 'crt.sh' && provider !== 'crtsh' && provider !== 'certspotter') {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('calls: provider must be crt.sh or certspotter\n');
      return;
    }
    const apex = url.searchParams.get('apex') ?? undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    const answer: FakeCtCallsAnswer = { calls: this.calls(provider, apex) };
    res.end(JSON.stringify(answer));
  }

  private route(url: URL): Route | { error: string } | null {
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/crtsh') {
      const q = url.searchParams.get('q');
      if (q === null || q === '') return { error: 'crt.sh: missing q' };
      if (url.searchParams.get('output') !== 'json')
        return { error: 'crt.sh fake: only output=json is served' };
      const apex = q.replace(/^%\./, '').toLowerCase();
      return { provider: 'crt.sh', apex, key: `crt.sh|${apex}`, build: () => this.dataset(apex).crtSh };
    }
    if (path === '/certspotter/v1/issuances') {
      const apex = (url.searchParams.get('domain') ?? '').toLowerCase();
      if (apex === '') return { error: 'certspotter: missing domain' };
      const subdomains = url.searchParams.get('include_subdomains') === 'true';
      const expand = url.searchParams.getAll('expand').includes('dns_names');
      const after = url.searchParams.get('after');
      if (after !== null && !/^\d+$/.test(after))
        return { error: 'certspotter: after must be an issuance id' };
      return {
        provider: 'certspotter',
        apex,
        key: `certspotter|${apex}|${subdomains}|${expand}|${after ?? ''}`,
        build: () =>
          certSpotterPage(this.dataset(apex).certSpotter, {
            apex,
            subdomains,
            expand,
            after,
            pageSize: this.pageSize,
          }),
      };
    }
    return null;
  }

  private record(route: Route, req: IncomingMessage): void {
    const { provider, apex } = route;
    this.counts.set(provider, (this.counts.get(provider) ?? 0) + 1);
    const perApex = `${provider}|${apex}`;
    this.counts.set(perApex, (this.counts.get(perApex) ?? 0) + 1);
    const log = this.log[provider];
    if (log.length >= MAX_KEPT_REQUESTS) log.shift();
    log.push({ provider, apex, url: req.url ?? '', authorization: req.headers.authorization ?? null });
  }

  private takeBehaviour(provider: FakeCtProvider): ParsedBehaviour {
    const state = this.behaviours.get(provider);
    if (state === undefined) return { kind: 'ok' };
    if (state.remaining !== null) {
      state.remaining -= 1;
      if (state.remaining <= 0) this.behaviours.delete(provider);
    }
    return state.behaviour;
  }

  private body(route: Route): Buffer {
    let body = this.answers.get(route.key);
    if (body === undefined) {
      if (this.answers.size >= MAX_CACHED_ANSWERS) this.answers.clear();
      body = Buffer.from(JSON.stringify(route.build()));
      this.answers.set(route.key, body);
    }
    return body;
  }

  private answer(res: ServerResponse, route: Route): void {
    const body = this.body(route);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  }

  private error(res: ServerResponse, provider: FakeCtProvider, code: number): void {
    const { contentType, body } = errorAnswer(provider, code);
    const headers: Record<string, string> = { 'content-type': contentType };
    if (code === 429 || code === 503) headers['retry-after'] = String(this.retryAfterSeconds);
    res.writeHead(code, headers);
    res.end(body);
  }
}

/** Starts the fake providers on 127.0.0.1; always `close()` them (afterAll). */
export async function startFakeCtProviders(options: FakeCtProvidersOptions = {}): Promise<FakeCtProviders> {
  const fake = new FakeCtServer(options);
  const server = createServer((req, res) => fake.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake CT providers: no TCP address');
  const { port } = address;
  const base = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: base,
    crtShUrl: `${base}/crtsh`,
    certSpotterUrl: `${base}/certspotter`,
    calls: (provider, apex) => fake.calls(provider, apex),
    requests: (provider) => fake.requests(provider),
    setBehaviour: (provider, behaviour, behaviourOptions = {}) =>
      fake.setBehaviour(provider, behaviour, behaviourOptions),
    setDataset: (apex, dataset) => fake.setDataset(apex, dataset),
    reset: () => fake.reset(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        fake.clearTimers();
        server.close(() => resolve());
        server.closeAllConnections(); // hanging and keep-alive sockets would hold close() open
      });
      return closing;
    },
  };
}
