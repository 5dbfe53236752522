/**
 * How a fake provider answers, set per provider by `setBehaviour()`:
 * - `ok`: the data set's answer;
 * - `status:<code>`: that status with the body the real service (or its proxy) sends;
 * - `hang`: never answers (the client's timeout must fire);
 * - `delay:<ms>`: the normal answer after that many ms;
 * - `huge:<bytes>`: a valid answer of exactly that many bytes, streamed (crt.sh can send hundreds of MB);
 * - `truncated`: the normal answer cut in the middle of the JSON, then a clean end of the response;
 * - `reset`: the TCP connection is destroyed without an answer (a network error).
 */
export type FakeCtBehaviour =
  | 'ok'
  | 'hang'
  | 'truncated'
  | 'reset'
  | `status:${number}`
  | `delay:${number}`
  | `huge:${number}`;

export type ParsedBehaviour =
  | { kind: 'ok' }
  | { kind: 'hang' }
  | { kind: 'truncated' }
  | { kind: 'reset' }
  | { kind: 'status'; code: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'huge'; bytes: number };

function nonNegativeInteger(text: string, behaviour: string): number {
  if (!/^\d+$/.test(text)) throw new RangeError(`fake CT provider: bad behaviour "${behaviour}"`);
  return Number(text);
}

export function parseBehaviour(behaviour: FakeCtBehaviour): ParsedBehaviour {
  switch (behaviour) {
    case 'ok':
    case 'hang':
    case 'truncated':
    case 'reset':
      return { kind: behaviour };
  }
  const [kind = '', argument = ''] = behaviour.split(':', 2);
  const value = nonNegativeInteger(argument, behaviour);
  if (kind === 'status') {
    if (value < 200 || value > 599) throw new RangeError(`fake CT provider: bad status in "${behaviour}"`);
    return { kind: 'status', code: value };
  }
  if (kind === 'delay') return { kind: 'delay', ms: value };
  if (kind === 'huge') return { kind: 'huge', bytes: value };
  throw new RangeError(`fake CT provider: unknown behaviour "${behaviour}"`);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface ErrorAnswer {
  contentType: string;
  body: string;
}

/** The nginx-style HTML page crt.sh's front end sends for errors (its 429 and 5xx look like this). */
function htmlError(code: number): ErrorAnswer {
  const title = `${code} ${REASONS[code] ?? 'Error'}`;
  return {
    contentType: 'text/html',
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  };
}

/** Cert Spotter answers 4xx with a JSON `{code, message}` object; 5xx come from its proxy as HTML. */
function certSpotterError(code: number): ErrorAnswer {
  if (code >= 500) return htmlError(code);
  const token = code === 429 ? 'rate_limited' : code === 401 ? 'unauthorized' : 'bad_request';
  const message =
    code === 429
      ? 'You have exceeded the rate limit for unauthenticated requests. Please try again later.'
      : (REASONS[code] ?? 'Error');
  return { contentType: 'application/json', body: JSON.stringify({ code: token, message }) };
}

export function errorAnswer(provider: 'crt.sh' | 'certspotter', code: number): ErrorAnswer {
  return provider === 'crt.sh' ? htmlError(code) : certSpotterError(code);
}
