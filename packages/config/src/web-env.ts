import { z } from 'zod';
import { urlVar } from './helpers';

/**
 * Variables of the processes that answer browsers and API clients over HTTP (the gateway and the
 * dashboard), spelled once.
 */

/**
 * TRUST_PROXY, as express's `trust proxy` takes it: off, on (every hop: only behind a proxy that
 * overwrites X-Forwarded-For), a hop count, or a comma-separated list of addresses/subnets or
 * express's names (`loopback`, `uniquelocal`, …). Off: X-Forwarded-* are ignored, so a client
 * cannot spoof its address.
 */
export function trustProxy(fallback: boolean | number | string) {
  return z
    .string()
    .trim()
    .min(1)
    .transform((text): boolean | number | string => {
      const lower = text.toLowerCase();
      if (['false', '0', 'no', 'off'].includes(lower)) return false;
      if (['true', 'yes', 'on'].includes(lower)) return true;
      if (/^\d+$/.test(text)) return Number(text);
      return text;
    })
    .default(fallback);
}

/**
 * PUBLIC_BASE_URL: the origin (and optional path prefix) clients reach the gateway at, used for the
 * links handed out (upload_url, artifact download links) and accepted as a form's Origin by the
 * dashboard. Kept without a trailing slash; a query or fragment cannot be part of a base. Unset:
 * built from each request itself, which is right unless a proxy rewrites the host or a path prefix.
 */
export const publicBaseUrl = urlVar(['http:', 'https:'])
  .refine((text) => {
    // zod runs this even after urlVar's check failed: an unparseable value is already reported.
    if (!URL.canParse(text)) return true;
    const url = new URL(text);
    return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  }, 'must be an http:// or https:// URL without query, fragment or credentials')
  .transform((text) => text.replace(/\/+$/, ''))
  .optional();
