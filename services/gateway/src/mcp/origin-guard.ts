import { ForbiddenError } from '@svc/errors';
import type { GatewayHandler } from '../locals';

/**
 * DNS-rebinding defence of /mcp (decisions M3; MCP transport spec "Security Warning"). A web page
 * on evil.example that re-points its name at 127.0.0.1 reaches a local gateway with
 * `Host: evil.example` and `Origin: http://evil.example`: both are refused with 403 before any
 * JSON-RPC. The SDK's Host check (createMcpExpressApp) ignores Origin (NOTES "MCP"), hence our own.
 */
export interface McpOriginPolicy {
  /** MCP_ALLOWED_HOSTS: `name` (any port) or `name:port`, lowercase. Unset: loopback names + the public base's host. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** MCP_ALLOWED_ORIGINS: exact origins (`https://app.example.com`). Unset: loopback origins + the public base's origin. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** PUBLIC_BASE_URL, whose host and origin are allowed by default. */
  readonly publicBaseUrl?: string | undefined;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** `host[:port]` split; a bracketed IPv6 address keeps its brackets. */
function splitHost(value: string): { name: string; port: string | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(value.toLowerCase());
  if (match === null) return { name: value.toLowerCase(), port: undefined };
  return { name: match[1] ?? '', port: match[2] };
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const { name, port } = splitHost(host);
  return allowed.some((entry) => {
    const rule = splitHost(entry);
    return rule.name === name && (rule.port === undefined || rule.port === port);
  });
}

function originAllowed(
  origin: string,
  allowed: readonly string[] | undefined,
  publicOrigin?: string,
): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (allowed !== undefined) return allowed.includes(url.origin.toLowerCase());
  if (publicOrigin !== undefined && url.origin === publicOrigin) return true;
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.includes(url.hostname);
}

/** The guard at the head of /mcp: 403 for a Host or Origin outside the policy. No Origin (not a browser) passes. */
export function mcpOriginGuard(policy: McpOriginPolicy): GatewayHandler {
  const publicUrl = policy.publicBaseUrl === undefined ? undefined : new URL(policy.publicBaseUrl);
  const hosts = policy.allowedHosts ?? [...LOOPBACK_HOSTS, ...(publicUrl ? [publicUrl.host] : [])];
  return (req, _res, next) => {
    const host = req.headers.host;
    if (host === undefined || !hostAllowed(host, hosts)) {
      throw new ForbiddenError('forbidden: the Host header is not one this MCP endpoint serves');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, policy.allowedOrigins, publicUrl?.origin)) {
      throw new ForbiddenError('forbidden: requests from this Origin are not allowed');
    }
    next();
  };
}
