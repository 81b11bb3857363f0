import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { importSPKI, jwtVerify } from 'jose';

/**
 * Firebase Cloud Messaging HTTP v1 and Google's OAuth token endpoint, on loopback, as the real
 * services behave for what we use: the JWT-bearer grant (RS256 assertion signed with the service
 * account's key, aud = Google's token URL, the firebase.messaging scope), bearer-checked
 * `messages:send` with the v1 request shape, and the v1 error bodies (google.rpc status with an
 * FcmError detail), Retry-After on 429.
 */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

export interface ReceivedMessage {
  project: string;
  authorization: string;
  body: unknown;
}

type Scripted =
  | { kind: 'unregistered' }
  | { kind: 'quota'; retryAfterSeconds?: number }
  | { kind: 'unavailable' }
  | { kind: 'internal' }
  | { kind: 'invalid-token' }
  | { kind: 'unauthenticated' };

export class FakeFcm {
  readonly projectId = 'pathway-test-project';
  readonly clientEmail = 'pathway-push@pathway-test-project.iam.gserviceaccount.com';
  readonly received: ReceivedMessage[] = [];
  /**
   * Client connections open now. Once a killed sender's are all closed, every request it had
   * written has arrived (a socket delivers its bytes before its end).
   */
  openConnections = 0;
  tokenRequests = 0;
  /** Lifetime of issued access tokens, as Google answers it. */
  expiresIn = 3599;
  /** How long a send takes to be answered (a real round trip to Google), for crash tests. */
  sendDelayMs = 0;
  /** Called as each message arrives, before it is answered (a crash test kills the sender here). */
  onMessage: ((message: ReceivedMessage, count: number) => void) | undefined;
  private readonly privateKey: string;
  private readonly publicKey: string;
  private readonly issued = new Set<string>();
  private readonly unregistered = new Set<string>();
  private readonly scripts = new Map<string, Scripted[]>();
  private server!: http.Server;
  url = '';

  constructor() {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.handle(req, Buffer.concat(chunks).toString('utf8'))
          .then(({ status, body, headers }) => {
            res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
            res.end(JSON.stringify(body));
          })
          .catch((error: Error) => {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(error.message);
          });
      });
    });
    this.server.on('connection', (socket) => {
      this.openConnections++;
      socket.once('close', () => this.openConnections--);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** A service-account key file as the Firebase console gives it, pointing at this token endpoint. */
  serviceAccount(options: { wrongKey?: boolean } = {}) {
    const key = options.wrongKey
      ? generateKeyPairSync('rsa', {
          modulusLength: 2048,
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        }).privateKey
      : this.privateKey;
    return {
      type: 'service_account' as const,
      project_id: this.projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: key,
      client_email: this.clientEmail,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: `${this.url}/token`,
    };
  }

  writeServiceAccount(dir: string, options: { wrongKey?: boolean } = {}): string {
    const file = path.join(dir, `service-account-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify(this.serviceAccount(options)));
    return file;
  }

  /** The app behind this registration token was uninstalled. */
  unregister(token: string): void {
    this.unregistered.add(token);
  }

  /** Answers the next sends to `token` with these failures, in order, then succeeds. */
  script(token: string, ...responses: Scripted[]): void {
    this.scripts.set(token, [...(this.scripts.get(token) ?? []), ...responses]);
  }

  private async handle(
    req: http.IncomingMessage,
    raw: string,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'POST' && url.pathname === '/token') return this.token(req, raw);
    const send = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url.pathname);
    if (req.method === 'POST' && send) return this.send(decodeURIComponent(send[1]!), req, raw);
    return { status: 404, body: { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } } };
  }

  private async token(req: http.IncomingMessage, raw: string) {
    this.tokenRequests++;
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return { status: 400, body: { error: 'invalid_request', error_description: 'Bad Request' } };
    }
    const form = new URLSearchParams(raw);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return {
        status: 400,
        body: {
          error: 'unsupported_grant_type',
          error_description: 'Invalid grant_type: ' + form.get('grant_type'),
        },
      };
    }
    try {
      const { payload } = await jwtVerify(
        form.get('assertion') ?? '',
        await importSPKI(this.publicKey, 'RS256'),
        {
          algorithms: ['RS256'],
          audience: GOOGLE_TOKEN_AUDIENCE,
          issuer: this.clientEmail,
        },
      );
      const scopes = String((payload.scope as string | undefined) ?? '').split(' ');
      if (!scopes.includes('https://www.googleapis.com/auth/firebase.messaging')) {
        return {
          status: 400,
          body: {
            error: 'invalid_scope',
            error_description: 'Invalid OAuth scope or ID token audience provided.',
          },
        };
      }
      if (!payload.exp || !payload.iat || payload.exp - payload.iat > 3600) {
        return {
          status: 400,
          body: {
            error: 'invalid_grant',
            error_description: 'Invalid JWT: Token must be a short-lived token (60 minutes)',
          },
        };
      }
    } catch {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
    }
    const accessToken = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    this.issued.add(accessToken);
    return {
      status: 200,
      body: { access_token: accessToken, expires_in: this.expiresIn, token_type: 'Bearer' },
    };
  }

  /** Every access token issued so far stops working (as after a key rotation). */
  revokeAccessTokens(): void {
    this.issued.clear();
  }

  private async send(project: string, req: http.IncomingMessage, raw: string) {
    const authorization = String(req.headers.authorization ?? '');
    const bearer = /^Bearer (.+)$/.exec(authorization)?.[1];
    if (!bearer || !this.issued.has(bearer)) {
      return rpcError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    }
    if (project !== this.projectId) {
      return rpcError(403, 'PERMISSION_DENIED', 'SenderId mismatch', 'SENDER_ID_MISMATCH');
    }
    let body: { message?: { token?: unknown; notification?: { title?: unknown; body?: unknown } } };
    try {
      body = JSON.parse(raw);
    } catch {
      return rpcError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    const token = body.message?.token;
    if (typeof token !== 'string' || !token)
      return rpcError(400, 'INVALID_ARGUMENT', 'Recipient of the message is not set.', 'INVALID_ARGUMENT');
    const scripted = this.scripts.get(token)?.shift();
    if (scripted?.kind === 'unauthenticated') {
      return rpcError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    const received = { project, authorization, body };
    this.received.push(received);
    this.onMessage?.(received, this.received.length);
    if (this.sendDelayMs > 0) await new Promise((r) => setTimeout(r, this.sendDelayMs));
    if (this.unregistered.has(token) || scripted?.kind === 'unregistered') {
      return rpcError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
    }
    if (scripted?.kind === 'quota') {
      return {
        ...rpcError(
          429,
          'RESOURCE_EXHAUSTED',
          'Quota exceeded for quota metric of service fcm.googleapis.com.',
          'QUOTA_EXCEEDED',
        ),
        headers:
          scripted.retryAfterSeconds !== undefined
            ? { 'retry-after': String(scripted.retryAfterSeconds) }
            : undefined,
      };
    }
    if (scripted?.kind === 'unavailable')
      return rpcError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE');
    if (scripted?.kind === 'internal')
      return rpcError(500, 'INTERNAL', 'Internal error encountered.', 'INTERNAL');
    if (scripted?.kind === 'invalid-token') {
      return rpcError(
        400,
        'INVALID_ARGUMENT',
        'The registration token is not a valid FCM registration token',
        'INVALID_ARGUMENT',
      );
    }
    return {
      status: 200,
      body: { name: `projects/${project}/messages/0:${Date.now()}%${randomBytes(8).toString('hex')}` },
    };
  }
}

function rpcError(code: number, status: string, message: string, fcmErrorCode?: string) {
  return {
    status: code,
    body: {
      error: {
        code,
        message,
        status,
        ...(fcmErrorCode && { details: [{ '@type': FCM_ERROR_TYPE, errorCode: fcmErrorCode }] }),
      },
    },
  };
}
