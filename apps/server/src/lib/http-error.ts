/** A refusal a service raises on purpose: the status and the message the user will read. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent with the refusal, e.g. `retry-after` on a 429. */
    readonly headers: Record<string, string> = {},
    /** Fields sent beside `message` (the contract's errorResponse declares each, e.g. step_up_required). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const forbidden = (message: string) => new HttpError(403, message);
