import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { SessionTokenVerifier, verifySessionToken } from './session-token.js';

const key = new TextEncoder().encode('k'.repeat(48));
const now = new Date('2026-03-02T09:00:00Z');
const seconds = Math.floor(now.getTime() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signed(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256' }) {
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
}

describe('verifySessionToken', () => {
  it('accepts a token jose signed with the key, and returns its claims', async () => {
    const token = await signed({ sid: 's', iat: seconds - 10, exp: seconds + 60 });
    expect(verifySessionToken(token, key, now)).toMatchObject({ sid: 's', exp: seconds + 60 });
  });

  it('refuses another key, a changed payload, a changed signature and alg none', async () => {
    const token = await signed({ sid: 's', exp: seconds + 60 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(verifySessionToken(token, new TextEncoder().encode('x'.repeat(48)), now)).toBeNull();
    expect(
      verifySessionToken(`${header}.${b64({ sid: 't', exp: seconds + 60 })}.${signature}`, key, now),
    ).toBeNull();
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(verifySessionToken(`${header}.${payload}.${flipped}`, key, now)).toBeNull();
    expect(verifySessionToken(`${b64({ alg: 'none' })}.${payload}.`, key, now)).toBeNull();
    expect(verifySessionToken(`${header}.${payload}`, key, now)).toBeNull();
    expect(verifySessionToken(`${header}.${payload}.${signature}.x`, key, now)).toBeNull();
  });

  it('refuses a header with critical extensions or another algorithm, even when signed', async () => {
    expect(verifySessionToken(await signed({ exp: seconds + 60 }, { alg: 'HS512' }), key, now)).toBeNull();
    const crit = await signed({ exp: seconds + 60 }, { alg: 'HS256', crit: ['b64'], b64: true });
    expect(verifySessionToken(crit, key, now)).toBeNull();
  });

  it('refuses a token without expiry, at or past its expiry, or not yet valid', async () => {
    expect(verifySessionToken(await signed({ sid: 's' }), key, now)).toBeNull();
    expect(verifySessionToken(await signed({ exp: seconds }), key, now)).toBeNull();
    expect(verifySessionToken(await signed({ exp: seconds + 1, nbf: seconds + 1 }), key, now)).toBeNull();
    expect(verifySessionToken(await signed({ exp: seconds + 1, nbf: seconds }), key, now)).not.toBeNull();
    expect(verifySessionToken(await signed({ exp: seconds + 1, iat: 'yesterday' }), key, now)).toBeNull();
  });
});

describe('SessionTokenVerifier', () => {
  it('checks the times of a token it has seen before on every call, and never keeps a bad one', async () => {
    const verifier = new SessionTokenVerifier(key);
    const token = await signed({ sid: 's', exp: seconds + 60 });
    expect(verifier.verify(token, now)).toMatchObject({ sid: 's' });
    expect(verifier.verify(token, new Date(now.getTime() + 59_000))).not.toBeNull();
    expect(verifier.verify(token, new Date(now.getTime() + 60_000))).toBeNull();
    const [header, , signature] = token.split('.') as [string, string, string];
    const changed = `${header}.${b64({ sid: 't', exp: seconds + 60 })}.${signature}`;
    expect(verifier.verify(changed, now)).toBeNull();
    expect(verifier.verify(changed, now)).toBeNull();
    expect(new SessionTokenVerifier(new TextEncoder().encode('x'.repeat(48))).verify(token, now)).toBeNull();
  });
});
