import { z } from 'zod';
import { roleSchema } from '@pathway/contract';
import type { AppContext } from './context.js';
import { AdminService } from './modules/admin/service.js';
import { runAdherenceCheck } from './modules/adherence/check.js';
import { seedDemo } from './demo/seed-demo.js';

/**
 * Operator commands. They run in whichever process owns the database: the CLI itself, or the
 * running server when the CLI reaches it over the local control socket (embedded mode).
 */
export interface Command<Args = Record<string, unknown>> {
  description: string;
  usage: string;
  /** Options that take a value (--name value); the rest of the command line must be flags. */
  options: string[];
  /** Options that are on or off (--force). */
  flags?: string[];
  args: z.ZodType<Args>;
  run(ctx: AppContext, args: Args): Promise<Record<string, unknown>>;
}

const createAdmin: Command<{
  username: string;
  password: string;
  role: string;
  'first-name': string;
  'last-name': string;
}> = {
  description: 'Create an admin user and print their TOTP enrolment',
  usage:
    'create-admin --username <name> --password <password> [--role "full access"|"basic access"] [--first-name <f>] [--last-name <l>] [--json]',
  options: ['username', 'password', 'role', 'first-name', 'last-name'],
  args: z.object({
    username: z.string({ error: '--username is required' }),
    password: z.string({ error: '--password is required' }),
    role: roleSchema.default('basic access'),
    'first-name': z.string().default(''),
    'last-name': z.string().default(''),
  }),
  async run(ctx, args) {
    const created = await new AdminService(ctx.db).create({
      user_name: args.username,
      password: args.password,
      role: args.role as never,
      first_name: args['first-name'],
      last_name: args['last-name'],
    });
    ctx.logger.info({ admin_user_id: created.admin.admin_user_id }, 'admin user created from the CLI');
    return {
      admin_user_id: created.admin.admin_user_id,
      user_name: created.admin.user_name,
      role: created.admin.role,
      totp_secret: created.totpSecret,
      otpauth_url: created.otpauthUrl,
    };
  },
};

const adherenceCheck: Command<Record<string, never>> = {
  description:
    'Run the daily adherence check now (days behind, percentages, next day unlocked, reminders); a second run the same day does nothing',
  usage: 'adherence-check [--json]',
  options: [],
  args: z.object({}).strict(),
  async run(ctx) {
    const result = await runAdherenceCheck(ctx);
    ctx.logger.info({ ...result }, 'adherence check run from the CLI');
    return { ...result };
  },
};

const seedDemoCommand: Command<{ force?: boolean }> = {
  description:
    'Fill an empty database with a demo programme: video sets with short generated videos, devices, participants in every adherence state, weeks of viewing history',
  usage: 'seed-demo [--force] [--json]',
  options: [],
  flags: ['force'],
  args: z.object({ force: z.boolean().optional() }).strict(),
  async run(ctx, args) {
    const result = await seedDemo(ctx, { force: args.force });
    ctx.logger.info({ ...result }, 'demo data added from the CLI');
    return { ...result };
  },
};

export const commands: Record<string, Command<never>> = {
  'create-admin': createAdmin as Command<never>,
  'adherence-check': adherenceCheck as Command<never>,
  'seed-demo': seedDemoCommand as Command<never>,
};

/** Validates a command's arguments with the same rules as the API's add-admin form. */
export function parseCommandArgs(command: Command<never>, raw: Record<string, unknown>) {
  const parsed = command.args.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}
