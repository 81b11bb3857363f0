import { FULL_ACCESS, roleSchema, type Role } from '@pathway/contract';

/**
 * The values a claim path reaches in an ID token's claims: `roles` is the claim itself (a string
 * or an array of strings, as Entra ID sends app roles); `nhsid_nrbac_roles.role_code` walks into
 * objects and through arrays (CIS2 sends a person's roles as objects in an array). Numbers and
 * booleans count as their text; anything else reached is ignored.
 */
export function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let current: unknown[] = [claims];
  for (const segment of path.split('.')) {
    current = current
      .flatMap((value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]))
      .filter((value): value is Record<string, unknown> => value !== null && typeof value === 'object')
      .map((value) => (Object.hasOwn(value, segment) ? value[segment] : undefined))
      .filter((value) => value !== undefined);
  }
  return current
    .flatMap((value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]))
    .filter((value) => ['string', 'number', 'boolean'].includes(typeof value))
    .map(String);
}

/**
 * The role the claims give: full access when any value maps to it, else basic access when any
 * value maps to that, else null (no value maps to a role: the sign-in is refused).
 */
export function roleFromClaims(
  claims: Record<string, unknown>,
  roleClaim: string,
  roleMap: Record<string, string>,
): Role | null {
  const roles = claimValues(claims, roleClaim)
    .filter((value) => Object.hasOwn(roleMap, value))
    .map((value) => roleSchema.safeParse(roleMap[value]))
    .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  if (roles.length === 0) return null;
  return roles.includes(FULL_ACCESS) ? FULL_ACCESS : roles[0]!;
}

/** The domain of a work email as typed (lower-cased), or null when it is no email address. */
export function emailDomainOf(email: string | undefined | null): string | null {
  const text = (email ?? '').trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at <= 0 || text.indexOf('@') !== at || text.length > 320) return null;
  const domain = text.slice(at + 1);
  return /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain) ? domain : null;
}
