// Without zod: the console's first download (the sign-in page and the shell) needs the role
// names only, and a module is bundled whole, so the schema lives apart (roles.ts).
export const ROLES = ['basic access', 'full access'] as const;
export type Role = (typeof ROLES)[number];
export const FULL_ACCESS: Role = 'full access';
export const BASIC_ACCESS: Role = 'basic access';

/** How the console names a role. */
export const ROLE_LABELS: Record<Role, string> = {
  'basic access': 'Basic access',
  'full access': 'Full access',
};
