import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { ssoConfigurations } from '../../db/schema.js';

/**
 * Whether an admin may sign in with password and code: always, unless their organisation requires
 * single sign-on; then only the break-glass accounts it names, each such sign-in a security event.
 * Read here from the sso module's table (its settings are written there): the password sign-in
 * needs nothing else of that module.
 */
export async function passwordSignInPolicy(
  db: Database,
  admin: { organisation_id: number; user_name: string },
): Promise<'allowed' | 'break-glass' | 'refused'> {
  const [settings] = await db
    .select({ required: ssoConfigurations.required, break_glass: ssoConfigurations.break_glass })
    .from(ssoConfigurations)
    .where(eq(ssoConfigurations.organisation_id, admin.organisation_id));
  if (!settings?.required) return 'allowed';
  return settings.break_glass.includes(admin.user_name.toLowerCase()) ? 'break-glass' : 'refused';
}
