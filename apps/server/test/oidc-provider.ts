import { createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID provider on loopback for the single sign-on tests: panva's oidc-provider (the
 * certified implementation), configured per test. Version 8 is pinned: it supports Node.js 20, on
 * which Pathway runs (version 9 asks for Node.js 22 and warns on 20).
 *
 * Its sign-in page (the "interaction") is a small form of this file: the person's account and, when
 * the provider offers several, the assurance level they signed in at. API tests post it with
 * `signInAtProvider` (real HTTP, cookies kept like a browser's); browser tests fill it in. Consent
 * is given by default (loadExistingGrant), as an organisation's provider does for its own clients.
 */

export interface TestAccount {
  sub: string;
  /** Claims of the person, put into the ID token as they are (email, email_verified, roles, ...). */
  claims: Record<string, unknown>;
}

export interface TestProviderOptions {
  clients: ClientMetadata[];
  accounts: TestAccount[];
  /** acr values the provider offers; the sign-in form asks which one the person reached. */
  acrValues?: string[];
  /** Seconds an ID token is valid (the provider's default is an hour). */
  idTokenTtl?: number;
  /**
   * Changes the ID token the token endpoint answers, as a broken or hostile provider would (a
   * wrong audience, a bad signature). `sign` signs claims with the provider's own key.
   */
  tamperIdToken?: (idToken: string, sign: (header: object, claims: object) => string) => string;
}

export interface TestProvider {
  issuer: string;
  provider: Provider;
  /** How many back-channel logout requests the provider sent, and their answers' statuses. */
  backchannelLogouts: number[];
  /** Signs claims with the provider's own key (RS256), for tokens a test makes itself (logout tokens). */
  sign: (header: object, claims: object) => string;
  close(): Promise<void>;
}

/** A URL-safe id for a test's accounts and clients. */
export const testId = () => randomBytes(6).toString('hex');

/** Signs claims with the provider's key (RS256), as the provider itself signs its ID tokens. */
function signRs256(privateKey: KeyObject, kid: string) {
  return (header: object, claims: object) => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'RS256', kid, ...header })}.${part(claims)}`;
    const signature = createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url');
    return `${input}.${signature}`;
  };
}

const FORM_STYLE = 'body{font-family:sans-serif;margin:2rem}label{display:block;margin:.5rem 0}';

/** The provider's sign-in page: the accounts to choose from, and the assurance level reached. */
function signInPage(uid: string, accounts: TestAccount[], acrValues: string[] | undefined): string {
  const options = accounts
    .map(
      (a) =>
        `<option value="${a.sub}">${typeof a.claims.email === 'string' ? a.claims.email : a.sub}</option>`,
    )
    .join('');
  const acr = acrValues
    ? `<label>Assurance level <select name="acr">${acrValues.map((v) => `<option>${v}</option>`).join('')}</select></label>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title><style>${FORM_STYLE}</style></head>
<body><main><h1>Test identity provider</h1><form method="post" action="/interaction/${uid}/login">
<label>Account <select name="account">${options}</select></label>${acr}
<button type="submit">Sign in at the provider</button></form></main></body></html>`;
}

async function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  // The port first: the issuer names it, and the provider is made with its issuer.
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = testId();
  const signingJwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  const accounts = new Map(options.accounts.map((a) => [a.sub, a]));
  const backchannelLogouts: number[] = [];

  const configuration: Configuration = {
    clients: options.clients,
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    ...(options.acrValues ? { acrValues: options.acrValues } : {}),
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'roles', 'sites', 'nhsid_nrbac_roles', 'xms_edov'],
    },
    // Claims in the ID token itself, as CIS2 and Entra ID send them (Pathway reads no userinfo).
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      claimsParameter: { enabled: true },
    },
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Grant: 3600,
      Session: 3600,
      AccessToken: 600,
      IdToken: options.idTokenTtl ?? 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const session = ctx.oidc.session!;
      const client = ctx.oidc.client!;
      const grant = new ctx.oidc.provider.Grant({ accountId: session.accountId!, clientId: client.clientId });
      const scope = ctx.oidc.params?.scope;
      grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid');
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...account.claims }) };
    },
  };
  const provider = new Provider(issuer, configuration);

  const sign = signRs256(privateKey, kid);
  if (options.tamperIdToken) {
    const tamper = options.tamperIdToken;
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === '/token' && body?.id_token) body.id_token = tamper(body.id_token, sign);
    });
  }
  // The provider's back-channel logout requests, counted for the tests to wait on.
  provider.on('backchannel.success', () => backchannelLogouts.push(200));
  provider.on('backchannel.error', () => backchannelLogouts.push(0));

  const callback = provider.callback();
  handler = (req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
    if (!match) return void callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (!match[2]) {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(signInPage(details.uid, options.accounts, options.acrValues));
          return;
        }
        const form = await formOf(req);
        const accountId = form.get('account') ?? '';
        const acr = form.get('acr') ?? undefined;
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId, ...(acr ? { acr } : {}) } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.statusCode = 400;
        res.end(String((error as Error).message));
      }
    })();
  };

  return {
    issuer,
    provider,
    backchannelLogouts,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
