import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** Pathway's public origin: PUBLIC_URL, else the one the request was sent to (behind a proxy, its forwarded one). */
export function publicBase(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
