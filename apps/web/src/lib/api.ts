import { messages } from '@pathway/contract';

/** A failed call: the HTTP status (0 when the server could not be reached) and the server's `message`. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/** Every error body of the server is `{ message }`; anything else (a proxy's page) gets a generic text. */
async function messageOf(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message;
    }
  } catch {
    // Not JSON: fall through to the generic texts.
  }
  return response.status >= 500 ? messages.generic.internal : messages.generic.badRequest;
}

async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = { Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, messages.generic.networkError);
  }
  if (!response.ok) throw new ApiError(response.status, await messageOf(response));
  return response;
}

/** Calls the API and answers the parsed JSON body (undefined for an empty body). */
export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiText(path: string, options: RequestOptions = {}): Promise<string> {
  return (await send(path, options, 'text/plain')).text();
}

export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await send(path, options, '*/*')).blob();
}

/** The response itself, for a body read as it arrives (a long export with a progress bar). */
export async function apiResponse(
  path: string,
  options: RequestOptions = {},
  accept = '*/*',
): Promise<Response> {
  return send(path, options, accept);
}
