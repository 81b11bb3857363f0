import { z } from 'zod';
import { ROLES } from './role-names.js';

export * from './role-names.js';
export const roleSchema = z.enum(ROLES);
