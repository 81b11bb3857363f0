import {
  STEP_UP_REQUIRED,
  messages,
  type AnswerOf,
  type BodyOf,
  type Endpoint,
  type HttpMethod,
  type ParamsOf,
  type QueryOf,
  type RouteRef,
} from '@pathway/contract';

/** A failed call: the HTTP status (0 when the server could not be reached) and the server's `message`. */
export class ApiError extends Error {
  readonly status: number;
  /** A 401 of a dangerous action whose step-up was not given (cancelled): the session goes on. */
  readonly stepUpRequired: boolean;

  constructor(status: number, message: string, stepUpRequired = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.stepUpRequired = stepUpRequired;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** A 401 that means the session has ended (not a step-up that was asked for and not given). */
export function isSessionEnded(error: unknown): boolean {
  return isApiError(error, 401) && !error.stepUpRequired;
}

/**
 * Asks the person to confirm their password and a new authenticator code (the step-up dialog,
 * components/StepUpHost.tsx); true once the server accepted it, false when they cancelled (or the form could not be loaded).
 */
type StepUpHandler = () => Promise<boolean>;
let stepUpHandler: StepUpHandler | null = null;

/** The console's step-up dialog registers itself here while the signed-in layout is shown. */
export function setStepUpHandler(handler: StepUpHandler | null): void {
  stepUpHandler = handler;
}

interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with its content type (a CSV file), instead of a JSON body. */
  file?: { type: string; data: Blob };
  signal?: AbortSignal;
}

/** Every error body of the server is `{ message }`; anything else (a proxy's page) gets a generic text. */
async function refusalOf(response: Response): Promise<{ message: string; stepUp: boolean }> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return {
        message: (body as { message: string }).message,
        stepUp: (body as Record<string, unknown>)[STEP_UP_REQUIRED] === true,
      };
    }
  } catch {
    // Not JSON: fall through to the generic texts.
  }
  return {
    message: response.status >= 500 ? messages.generic.internal : messages.generic.badRequest,
    stepUp: false,
  };
}

async function send(
  path: string,
  options: RequestOptions,
  accept: string,
  retried = false,
): Promise<Response> {
  const { method = 'GET', body, file, signal } = options;
  const headers: Record<string, string> = { Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (file) headers['Content-Type'] = file.type;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: file ? file.data : body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, messages.generic.networkError);
  }
  if (!response.ok) {
    const refusal = await refusalOf(response);
    // A dangerous action whose session last proved itself longer ago than the contract's
    // STEP_UP_MAX_AGE_MINUTES: the step-up form, then the same request once more.
    if (response.status === 401 && refusal.stepUp) {
      if (!retried && stepUpHandler && (await stepUpHandler())) return send(path, options, accept, true);
      throw new ApiError(401, refusal.message, true);
    }
    throw new ApiError(response.status, refusal.message);
  }
  return response;
}

// ---- Calls by the contract's endpoint table ----

type Part<Name extends string, T> = [T] extends [never] ? { [K in Name]?: never } : { [K in Name]: T };
type QueryPart<E extends Endpoint> = [QueryOf<E>] extends [never]
  ? { query?: never }
  : object extends QueryOf<E>
    ? { query?: QueryOf<E> }
    : { query: QueryOf<E> };

/** What a call of `endpoint` sends: its path parameters, query and body, each typed by the contract. */
export type CallOptions<E extends Endpoint> = Part<'params', ParamsOf<E>> &
  QueryPart<E> &
  Part<'body', BodyOf<E>> & { signal?: AbortSignal };

/** The options argument may be left out when the endpoint needs nothing. */
type CallArgs<E extends Endpoint> =
  object extends CallOptions<E> ? [options?: CallOptions<E>] : [options: CallOptions<E>];

/** Path and query values are plain (numbers, strings, booleans, enums) in every entry of the table. */
type PlainValue = string | number | boolean | null | undefined;

interface LooseOptions {
  params?: Record<string, PlainValue>;
  query?: Record<string, PlainValue>;
  body?: unknown;
  signal?: AbortSignal;
}

/** The endpoint's path with its `:name` parameters filled in (encoded) and its query, if any. */
export function pathOf<E extends Endpoint>(route: RouteRef<E>, ...[options]: CallArgs<E>): string {
  const { params = {}, query = {} } = (options ?? {}) as LooseOptions;
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${route.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

function sendCall(route: RouteRef, options: LooseOptions | undefined, accept: string): Promise<Response> {
  const path = pathOf(route, options as never);
  return send(path, { method: route.method, body: options?.body, signal: options?.signal }, accept);
}

/**
 * Calls one route of the contract's table and answers its parsed JSON body, typed by the table:
 * `call(apiRoutes.participants.get, { params: { id } })`. The route carries only its method and
 * path (no schema, so the console loads no zod for its calls); its entry gives the types.
 */
export async function call<E extends Endpoint>(
  route: RouteRef<E>,
  ...[options]: CallArgs<E>
): Promise<AnswerOf<E>> {
  const response = await sendCall(route, options as LooseOptions | undefined, 'application/json');
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as AnswerOf<E>;
}

/** A route whose answer is text (a log file). */
export async function callText<E extends Endpoint>(
  route: RouteRef<E>,
  ...[options]: CallArgs<E>
): Promise<string> {
  return (await sendCall(route, options as LooseOptions | undefined, 'text/plain')).text();
}

/** A route whose answer is a file (CSV, a log file). */
export async function callBlob<E extends Endpoint>(
  route: RouteRef<E>,
  ...[options]: CallArgs<E>
): Promise<Blob> {
  return (await sendCall(route, options as LooseOptions | undefined, '*/*')).blob();
}

/** The response itself, for a body read as it arrives (a long export with a progress bar). */
export async function callResponse<E extends Endpoint>(
  route: RouteRef<E>,
  accept: string,
  ...[options]: CallArgs<E>
): Promise<Response> {
  return sendCall(route, options as LooseOptions | undefined, accept);
}

/**
 * A route whose body is a file sent as it is (the bulk-referral CSV), with `contentType`; its
 * query and path from `options`, its JSON answer typed by the table.
 */
export async function callWithFile<E extends Endpoint>(
  route: RouteRef<E>,
  file: { type: string; data: Blob },
  options: Omit<CallOptions<E>, 'body'>,
): Promise<AnswerOf<E>> {
  const path = pathOf(route, options as never);
  const response = await send(
    path,
    { method: route.method, file, signal: options.signal },
    'application/json',
  );
  return (await response.json()) as AnswerOf<E>;
}
