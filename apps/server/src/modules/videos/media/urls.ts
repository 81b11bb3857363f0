import type { FastifyRequest } from 'fastify';
import type { Config } from '../../../config.js';
import { isBlobKey } from '../../../storage/blob-store.js';

/** Where stored files are served: `/media/<storage key>`. */
export const MEDIA_PREFIX = '/media/';

const UPLOAD_KEY = /^uploads\/[0-9a-f]{32}$/;

export function isUploadKey(key: string): boolean {
  return UPLOAD_KEY.test(key);
}

/**
 * The origin tablets and the console reach us on: PUBLIC_URL when set (behind a proxy, the only
 * reliable one), else the request's own (protocol from X-Forwarded-Proto when TRUST_PROXY is on).
 */
export function publicOrigin(request: FastifyRequest, config: Config): string {
  return config.publicUrl ? new URL(config.publicUrl).origin : requestOrigin(request);
}

/** The request's own origin, normalised as URL.origin does (no default port). */
function requestOrigin(request: FastifyRequest): string {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return `${request.protocol}://localhost`;
  }
}

export function mediaUrl(origin: string, key: string): string {
  return `${origin}${MEDIA_PREFIX}${key}`;
}

/** A stored value that is a storage key becomes its absolute URL; a status text stays as it is. */
export function storedUrl(origin: string, value: string): string {
  return isBlobKey(value) ? mediaUrl(origin, value) : value;
}

/**
 * The storage key of an upload named by a client: the `location` a finished upload answered
 * (absolute URL on one of our origins), its path, or the key itself. Anything else (another
 * host, another path, a query string) is not one of our uploads: null.
 */
export function uploadKeyFromLocation(value: string, ourOrigins: string[]): string | null {
  const text = value.trim();
  if (isUploadKey(text)) return text;
  let url: URL;
  try {
    url = new URL(text, 'relative:/');
  } catch {
    return null;
  }
  if (url.search || url.hash) return null;
  const isRelative = url.protocol === 'relative:';
  if (!isRelative && !ourOrigins.includes(url.origin)) return null;
  if (!url.pathname.startsWith(MEDIA_PREFIX)) return null;
  const key = url.pathname.slice(MEDIA_PREFIX.length);
  return isUploadKey(key) ? key : null;
}

export function ourOrigins(request: FastifyRequest, config: Config): string[] {
  const own = requestOrigin(request);
  return config.publicUrl ? [new URL(config.publicUrl).origin, own] : [own];
}
