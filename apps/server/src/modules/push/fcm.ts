import { readFileSync } from 'node:fs';
import type { JWT } from 'google-auth-library';
import { z } from 'zod';
import type { PushMessage, PushProvider, PushResult } from './provider.js';

/** google-auth-library signs its assertions for, and posts them to, this endpoint. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const FCM_API_URL = 'https://fcm.googleapis.com';

const serviceAccountSchema = z.object({
  type: z.literal('service_account', {
    error: 'is not a service-account key (type must be service_account)',
  }),
  project_id: z.string().optional(),
  client_email: z.string().min(1, { error: 'has no client_email' }),
  private_key: z.string().includes('PRIVATE KEY', { error: 'has no private_key' }),
  token_uri: z.url().optional(),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export function readServiceAccount(file: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`FCM_SERVICE_ACCOUNT_FILE ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  const result = serviceAccountSchema.safeParse(parsed);
  if (!result.success) throw new Error(`FCM_SERVICE_ACCOUNT_FILE ${file} ${result.error.issues[0]!.message}`);
  return result.data;
}

export interface FcmOptions {
  projectId: string;
  serviceAccount: ServiceAccount;
  /** Base URL of the FCM HTTP v1 API (a different one only for tests or an emulator). */
  apiUrl?: string;
  timeoutMs?: number;
}

interface FcmErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: { '@type'?: string; errorCode?: string }[];
  };
}

/** Retry-After is either seconds or an HTTP date. */
function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Firebase Cloud Messaging HTTP v1. The OAuth access token is minted from the service account
 * and cached (and refreshed before it expires) by google-auth-library. The token endpoint is the
 * key file's `token_uri` (Google's, in every real key).
 */
export class FcmProvider implements PushProvider {
  readonly name = 'fcm';
  /**
   * Made on the first send: google-auth-library (with gaxios and its helpers, a quarter of a
   * megabyte of code) is loaded only by a process that sends a push, not at every start.
   */
  private auth: Promise<JWT> | undefined;
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: FcmOptions) {
    this.endpoint = `${(options.apiUrl ?? FCM_API_URL).replace(/\/$/, '')}/v1/projects/${encodeURIComponent(options.projectId)}/messages:send`;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private async newAuthClient(): Promise<JWT> {
    const { JWT } = await import('google-auth-library');
    const { serviceAccount } = this.options;
    const auth = new JWT({
      email: serviceAccount.client_email,
      key: serviceAccount.private_key,
      scopes: [FCM_SCOPE],
    });
    const tokenUri = serviceAccount.token_uri;
    if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL) {
      auth.transporter.interceptors.request.add({
        resolved: async (config) => {
          if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(tokenUri);
          return config;
        },
      });
    }
    return auth;
  }

  async send(message: PushMessage): Promise<PushResult> {
    let accessToken: string | null | undefined;
    try {
      // A failed load is tried again at the next send.
      this.auth ??= this.newAuthClient().catch((error: unknown) => {
        this.auth = undefined;
        throw error;
      });
      accessToken = (await (await this.auth).getAccessToken()).token;
    } catch (error) {
      return { outcome: 'retry', error: `OAuth token request failed: ${(error as Error).message}` };
    }
    if (!accessToken) return { outcome: 'retry', error: 'OAuth token request returned no token' };

    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json; charset=utf-8',
        },
        body: JSON.stringify({
          message: {
            token: message.token,
            notification: { title: message.title, body: message.body },
            android: { priority: 'high' },
          },
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { outcome: 'retry', error: `FCM unreachable: ${(error as Error).message}` };
    }

    if (response.ok) {
      const body = (await response.json().catch(() => ({}))) as { name?: string };
      return { outcome: 'sent', providerMessageId: body.name };
    }
    const body = (await response.json().catch(() => ({}))) as FcmErrorBody;
    const fcmCode = body.error?.details?.find((d) =>
      d['@type']?.endsWith('google.firebase.fcm.v1.FcmError'),
    )?.errorCode;
    const code = fcmCode ?? body.error?.status ?? `HTTP ${response.status}`;
    const error = `${code}: ${body.error?.message ?? response.statusText}`.slice(0, 500);

    if (fcmCode === 'UNREGISTERED') return { outcome: 'unregistered', error };
    if (response.status === 429 || response.status >= 500) {
      return { outcome: 'retry', error, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
    }
    if (response.status === 401) {
      // The cached access token was refused (revoked, or clock skew): start a client without it.
      this.auth = this.newAuthClient();
      return { outcome: 'retry', error };
    }
    return { outcome: 'failed', error };
  }
}
