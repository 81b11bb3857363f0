import { z } from 'zod';

export const ROLES = ['basic access', 'full access'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;
export const FULL_ACCESS: Role = 'full access';
export const BASIC_ACCESS: Role = 'basic access';
