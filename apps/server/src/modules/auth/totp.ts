import * as OTPAuth from 'otpauth';
import { limits } from '@pathway/contract';

const ISSUER = 'Pathway';

function totpFor(userName: string, secretBase32: string) {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label: userName,
    algorithm: 'SHA1',
    digits: limits.totpDigits,
    period: limits.totpPeriodSeconds,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  // 160 bits, the size RFC 4226 recommends for HMAC-SHA1.
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function otpauthUrl(userName: string, secretBase32: string): string {
  return totpFor(userName, secretBase32).toString();
}

/**
 * The RFC 6238 time step the code belongs to (accepting one step of drift either way), or null.
 * Callers compare the step with the last one used so that a code works only once.
 */
export function matchingTotpStep(
  userName: string,
  secretBase32: string,
  code: string,
  at: Date,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(userName, secretBase32).validate({
    token: code,
    timestamp: at.getTime(),
    window: limits.totpDriftSteps,
  });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / limits.totpPeriodSeconds) + delta;
}

/** For tests and the CLI: the code an authenticator app would show at `at`. */
export function totpCode(userName: string, secretBase32: string, at: Date = new Date()): string {
  return totpFor(userName, secretBase32).generate({ timestamp: at.getTime() });
}
