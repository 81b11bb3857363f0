/** One push message to one app installation. Nothing but what staff typed (or a fixed reminder). */
export interface PushMessage {
  token: string;
  title: string;
  body: string;
}

export type PushResult =
  | { outcome: 'sent'; providerMessageId?: string }
  /** Worth trying again later (rate limit, provider or network trouble). */
  | { outcome: 'retry'; error: string; retryAfterMs?: number }
  /** The app is no longer registered under this token: stop using it. */
  | { outcome: 'unregistered'; error: string }
  /** Will not succeed by retrying (bad request, wrong project). */
  | { outcome: 'failed'; error: string };

export interface PushProvider {
  readonly name: string;
  send(message: PushMessage): Promise<PushResult>;
}
