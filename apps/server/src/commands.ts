import path from 'node:path';
import { z } from 'zod';
import { createAdminBody, roleSchema } from '@pathway/contract';
import type { AppContext } from './context.js';
import { instanceScope, withScope } from './db/scope.js';
import { AdminService, COMMAND_LINE } from './modules/admin/index.js';
import { rotateSecretsKey } from './modules/auth/index.js';
import { runAdherenceCheck } from './modules/adherence/index.js';
import { seedDemo } from './demo/seed-demo.js';
import { createBackup, restoreBackup } from './backup/backup.js';
import type { Config } from './config.js';
import { HttpError } from './lib/http-error.js';
import { SecretBox } from './lib/secret-box.js';
import { describeKeySource, loadSecretsKey } from './lib/secrets-key.js';
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
  /**
   * Set when the command must not run while an embedded server runs (the reason, for the
   * refusal): the CLI then never sends it over the control socket, and refuses when the data
   * directory is in use.
   */
  needsStoppedServer?: string;
}

const createAdmin: Command<{
  username: string;
  password: string;
  role: string;
  'first-name': string;
  'last-name': string;
  organisation?: number;
  'system-administrator'?: boolean;
}> = {
  description:
    'Create an admin user and print their TOTP enrolment (the first admin of an instance is its system administrator)',
  usage:
    'create-admin --username <name> --password <password> [--role "full access"|"basic access"] [--first-name <f>] [--last-name <l>] [--organisation <id>] [--system-administrator] [--json]',
  options: ['username', 'password', 'role', 'first-name', 'last-name', 'organisation'],
  flags: ['system-administrator'],
  args: z.object({
    username: z.string({ error: '--username is required' }),
    password: z.string({ error: '--password is required' }),
    role: roleSchema.default('basic access'),
    'first-name': z.string().default(''),
    'last-name': z.string().default(''),
    organisation: z.coerce
      .number({ error: '--organisation must be an organisation id' })
      .int({ error: '--organisation must be an organisation id' })
      .positive({ error: '--organisation must be an organisation id' })
      .optional(),
    'system-administrator': z.boolean().optional(),
  }),
  async run(ctx, args) {
    const admins = new AdminService(ctx.db, ctx.secrets);
    // The first admin of an instance runs it: nobody else could add organisations or read the logs.
    const first = (await admins.count()) === 0;
    const created = await admins.create(
      // Checked by the console's own rules (length, trimming), as a POST /api/admin body is.
      createAdminBody.parse({
        user_name: args.username,
        password: args.password,
        role: args.role,
        first_name: args['first-name'],
        last_name: args['last-name'],
        organisation_id: args.organisation,
        system_administrator: (args['system-administrator'] ?? false) || first,
      }),
      // Audited like one added in the console; an operator at the server's shell has no session,
      // and may add an admin to any organisation (the only one when none is named).
      COMMAND_LINE,
    );
    ctx.logger.info({ admin_user_id: created.admin.admin_user_id }, 'admin user created from the CLI');
    return {
      admin_user_id: created.admin.admin_user_id,
      user_name: created.admin.user_name,
      role: created.admin.role,
      organisation_id: created.admin.organisation_id,
      system_administrator: created.admin.system_administrator,
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
    const restored = await restoreBackup(args.file, config.dataDir);
    return {
      data_dir: config.dataDir,
      ...restored,
      secrets_key: secretsKeyNote(config, restored.secrets_key_id),
    };
  },
};

/**
 * What the restored database needs to start: its secrets key is not in the archive, so say
 * whether the key this configuration points at is the one (README, Backup and restore).
 */
function secretsKeyNote(config: Config, needed: string | null): string {
  if (!needed) return 'the restored database holds no sealed secret: any key will do';
  const where = describeKeySource(config.secretsKey);
  let found: string | undefined;
  try {
    const key = loadSecretsKey(config.secretsKey);
    found = key && new SecretBox(key).keyId;
  } catch {
    found = undefined;
  }
  if (found === needed) return `key ${needed} needed; ${where} holds it: start the server`;
  return (
    `key ${needed} needed, and ${where} ${found ? `holds key ${found}` : 'has none'}: ` +
    'before starting the server, put the key file kept with the backups beside DATA_DIR as ' +
    `${config.dataDir}.secrets-key, or set SECRETS_KEY or SECRETS_KEY_FILE to it`
  );
}

const rotateSecretsKeyCommand: Command<{ 'new-key-file'?: string }> = {
  description:
    'Re-seal every secret in the database (TOTP secrets) under a new secrets key, in one transaction, and say what to change next; the embedded server must be stopped',
  usage: 'rotate-secrets-key [--new-key-file <file>] [--json]',
  options: ['new-key-file'],
  pathOptions: ['new-key-file'],
  args: z.object({ 'new-key-file': z.string().min(1).optional() }).strict(),
  needsStoppedServer:
    'the running server holds the current key and signs sessions with a key derived from it; a key swapped under it would disagree with its configuration at the next start',
  async run(ctx, args) {
    const file = args['new-key-file'];
    const dataDir = ctx.config.dataDir;
    if (file && (file === dataDir || file.startsWith(dataDir + path.sep)))
      throw new Error(`--new-key-file (${file}) is inside DATA_DIR: keep the key outside it`);
    // As the tables' owner: the sealed secrets are read and written by nothing a request runs.
    const result = await rotateSecretsKey(ctx.database.db, ctx.secrets, ctx.config.secretsKey, file);
    ctx.logger.info(
      { previous_key_id: result.previous_key_id, key_id: result.key_id, totp_secrets: result.totp_secrets },
      'secrets key rotated from the CLI',
    );
    return { ...result };
  },
};

export const commands: Record<string, Command<never>> = atTheShell({
  'create-admin': createAdmin as Command<never>,
  'adherence-check': adherenceCheck as Command<never>,
  'seed-demo': seedDemoCommand as Command<never>,
  backup: backupCommand as Command<never>,
  restore: restoreCommand as Command<never>,
  'rotate-secrets-key': rotateSecretsKeyCommand as Command<never>,
});

/** An operator's command at the server's shell is the instance's work, named by the command. */
function atTheShell(all: Record<string, Command<never>>): Record<string, Command<never>> {
  return Object.fromEntries(
    Object.entries(all).map(([name, command]) => [
      name,
      {
        ...command,
        run: (ctx, args) => withScope(instanceScope(`command line ${name}`), () => command.run(ctx, args)),
      },
    ]),
  );
}

/** Validates a command's arguments with the same rules as the API's add-admin form. */
export function parseCommandArgs(command: Command<never>, raw: Record<string, unknown>) {
  const parsed = command.args.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}
