import { z } from 'zod';
import { roleSchema } from '@pathway/contract';
import type { AppContext } from './context.js';
import { AdminService } from './modules/admin/service.js';
import { runAdherenceCheck } from './modules/adherence/check.js';
import { seedDemo } from './demo/seed-demo.js';
import { createBackup, restoreBackup } from './backup/backup.js';
import type { Config } from './config.js';
import { HttpError } from './lib/http-error.js';
import { messages } from '@pathway/contract';

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
  /** Options naming files: made absolute by the CLI, since the server's working directory differs. */
  pathOptions?: string[];
  /** The one positional argument (`restore FILE`), passed on under this name. */
  positional?: string;
  run(ctx: AppContext, args: Args): Promise<Record<string, unknown>>;
  /** Runs in the CLI itself, without opening the database (restore fills an empty DATA_DIR). */
  standalone?(config: Config, args: Args): Promise<Record<string, unknown>>;
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
    const created = await new AdminService(ctx.db).create(
      {
        user_name: args.username,
        password: args.password,
        role: args.role as never,
        first_name: args['first-name'],
        last_name: args['last-name'],
      },
      // Audited like one added in the console; an operator at the server's shell has no session.
      { adminUserId: null, userName: 'command line (create-admin)', ip: null },
    );
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

const backupCommand: Command<{ out: string }> = {
  description:
    'Write one consistent archive of the embedded database and the media files (while the server runs and serves), with a manifest of row counts and checksums',
  usage: 'backup --out <file> [--json]',
  options: ['out'],
  pathOptions: ['out'],
  args: z.object({ out: z.string({ error: '--out is required' }).min(1) }).strict(),
  async run(ctx, args) {
    return { ...(await createBackup(ctx, args.out)) };
  },
};

const restoreCommand: Command<{ file: string }> = {
  description:
    'Fill an empty DATA_DIR from a backup archive, after checking every checksum and row count; refuses a non-empty DATA_DIR or a damaged archive',
  usage: 'restore <file> [--json]',
  options: [],
  positional: 'file',
  pathOptions: ['file'],
  args: z
    .object({ file: z.string({ error: 'restore needs the backup file: restore <file>' }).min(1) })
    .strict(),
  async run() {
    throw new HttpError(409, messages.backup.notEmpty);
  },
  async standalone(config, args) {
    if (config.databaseUrl) throw new HttpError(400, messages.backup.postgresRestore);
    return { data_dir: config.dataDir, ...(await restoreBackup(args.file, config.dataDir)) };
  },
};

export const commands: Record<string, Command<never>> = {
  'create-admin': createAdmin as Command<never>,
  'adherence-check': adherenceCheck as Command<never>,
  'seed-demo': seedDemoCommand as Command<never>,
  backup: backupCommand as Command<never>,
  restore: restoreCommand as Command<never>,
};

/** Validates a command's arguments with the same rules as the API's add-admin form. */
export function parseCommandArgs(command: Command<never>, raw: Record<string, unknown>) {
  const parsed = command.args.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}
