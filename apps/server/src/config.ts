import path from 'node:path';
import { z } from 'zod';
import { SECRETS_KEY_FORMAT, parseSecretsKey } from './lib/secret-box.js';
import { defaultKeyFile, type SecretsKeySource } from './lib/secrets-key.js';

/**
 * Everything that changes between machines comes from the environment and is checked here, once,
 * at start: a wrong setting stops the process with a clear message instead of failing later.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'DATABASE_URL must start with postgres://' })
    .optional(),
  /** Signing key for session JWTs; when absent it is derived from the secrets key (never stored). */
  SESSION_SECRET: z.string().min(32).optional(),
  /**
   * The key that seals secrets at rest (TOTP secrets; README, Secrets at rest), kept out of the
   * database: the key itself, or a file holding it. Neither set (embedded only): a key file
   * generated beside DATA_DIR on the first start.
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null, { error: `must be ${SECRETS_KEY_FORMAT}` })
    .optional(),
  SECRETS_KEY_FILE: z.string().min(1).optional(),
  /** Public origin (https://pathway.example.nhs.uk) used in absolute URLs given to tablets. */
  PUBLIC_URL: z.url().optional(),
  /** Sign-in attempts a minute from one address, and from everywhere together (README, Security). */
  LOGIN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  LOGIN_LIMIT_OVERALL: z.coerce.number().int().min(1).default(300),
  /**
   * Other origins (comma-separated, e.g. https://pathway.trust.nhs.uk) from which the console may
   * send state-changing requests: a proxy that serves it under another name than PUBLIC_URL.
   */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v, c) => {
      const origins: string[] = [];
      for (const item of v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        try {
          const url = new URL(item);
          if (url.origin === 'null') throw new Error('opaque');
          origins.push(url.origin);
        } catch {
          c.addIssue({
            code: 'custom',
            message: `ALLOWED_ORIGINS: ${item} is not an origin such as https://host`,
          });
          return z.NEVER;
        }
      }
      return origins;
    }),
  /** Set when TLS terminates in front of us, so cookies are marked Secure. */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_TO_STDOUT: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * How stdout's log lines look: `pretty` (one readable line each, for a person at a terminal) or
   * `json` (for a platform's collector). Unset: pretty on a terminal, JSON when piped. The daily
   * files are always JSON.
   */
  LOG_FORMAT: z.enum(['pretty', 'json'], { error: 'LOG_FORMAT must be pretty or json' }).optional(),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 ** 3),
  /**
   * Free space (MiB) kept in DATA_DIR: below it, writes are refused with 503 so the embedded
   * database keeps room for its write-ahead log (README, Disk full). 0 turns the check off.
   */
  DISK_RESERVE_MB: z.coerce.number().int().min(0).default(256),
  ADHERENCE_CHECK_CRON: z.string().default('0 6 * * *'),
  ADHERENCE_CHECK_TZ: z.string().default('Europe/London'),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addressing (endpoint/bucket/key), which S3-compatible servers expect; AWS accepts it too. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Daily log files older than this many days are removed by the retention job. */
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  /** Audit records are kept this many days (eight years by default; set it to your records policy). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(2920),
  /** Push messages that are no longer waiting (sent, failed, not sent) are kept this many days. */
  PUSH_RETENTION_DAYS: z.coerce.number().int().min(1).default(180),
  /** Finished background jobs (completed, failed, cancelled) are kept this many days. */
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).default(14),
  /**
   * A discharged participant's record is due for review this many years after discharge (NHS
   * Records Management Code: adult health records 8 years after care ends). Reviewed, never
   * destroyed automatically: the Records due for review screen lists it.
   */
  PARTICIPANT_RETENTION_YEARS: z.coerce.number().int().min(1).max(100).default(8),
  /** When the retention job runs (in ADHERENCE_CHECK_TZ). */
  RETENTION_CRON: z.string().default('40 3 * * *'),
  /** Embedded mode: a backup at these times (cron, in ADHERENCE_CHECK_TZ) into BACKUP_DIR. */
  BACKUP_CRON: z.string().optional(),
  BACKUP_DIR: z.string().optional(),
  /** How many scheduled backups to keep (the oldest go first). */
  BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
  /** An unused tablet token expires after this many days (the app never asks for a new one sooner). */
  DEVICE_TOKEN_IDLE_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * The name of the organisation an instance starts with: a new one, or one upgraded from a
   * release without organisations (read once, when the upgrade runs; rename it in the console).
   */
  ORGANISATION_NAME: z.string().trim().min(2).max(200).default('Pathway programme'),
  /**
   * Browser tests only (a coordinator's morning, hours after the daily check): a file holding a
   * number of milliseconds by which the server's clock runs ahead of the machine's, read again when
   * it changes. Unset in any real deployment.
   */
  CLOCK_OFFSET_FILE: z.string().min(1).optional(),
  /** Follow-up: a tablet with no authenticated call for this many days is "tablet silent". */
  FOLLOWUP_SILENT_DAYS: z.coerce.number().int().min(1).max(365).default(3),
  /**
   * Calls 1 and 2 (no token) per device id and per source address in each window. A tablet
   * starts a few times a day; several tablets of one care home may share an address.
   */
  DEVICE_RATE_LIMIT_PER_DEVICE: z.coerce.number().int().min(1).default(12),
  DEVICE_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(60),
  DEVICE_RATE_LIMIT_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  FCM_PROJECT_ID: z.string().optional(),
  FCM_SERVICE_ACCOUNT_FILE: z.string().optional(),
  /** Only for tests or an emulator: the FCM HTTP v1 API's base URL. */
  FCM_API_URL: z.url().optional(),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  if (e.FCM_PROJECT_ID && !e.FCM_SERVICE_ACCOUNT_FILE) {
    throw new Error(
      'Invalid configuration:\n  FCM_PROJECT_ID is set but FCM_SERVICE_ACCOUNT_FILE is not: push messages need both',
    );
  }
  if (e.BACKUP_CRON && !e.BACKUP_DIR) {
    throw new Error(
      'Invalid configuration:\n  BACKUP_CRON is set but BACKUP_DIR is not: scheduled backups need a directory (best on another disk)',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const secretsKey = secretsKeySource(e, dataDir);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    sessionSecret: e.SESSION_SECRET,
    secretsKey,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS,
    loginLimits: { perAddress: e.LOGIN_LIMIT_PER_ADDRESS, overall: e.LOGIN_LIMIT_OVERALL },
    logLevel: e.LOG_LEVEL,
    logToStdout: e.LOG_TO_STDOUT,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    logDir: path.join(dataDir, 'logs'),
    mediaDir: path.join(dataDir, 'media'),
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    diskReserveBytes: e.DISK_RESERVE_MB * 1024 * 1024,
    deviceTokenIdleDays: e.DEVICE_TOKEN_IDLE_DAYS,
    organisationName: e.ORGANISATION_NAME,
    followupSilentDays: e.FOLLOWUP_SILENT_DAYS,
    clockOffsetFile: e.CLOCK_OFFSET_FILE,
    deviceRateLimit: {
      perDevice: e.DEVICE_RATE_LIMIT_PER_DEVICE,
      perAddress: e.DEVICE_RATE_LIMIT_PER_ADDRESS,
      windowMs: e.DEVICE_RATE_LIMIT_WINDOW_MINUTES * 60_000,
    },
    adherenceCheck: { cron: e.ADHERENCE_CHECK_CRON, timeZone: e.ADHERENCE_CHECK_TZ },
    backup: e.BACKUP_CRON
      ? { cron: e.BACKUP_CRON, dir: path.resolve(e.BACKUP_DIR!), keep: e.BACKUP_KEEP }
      : undefined,
    retention: {
      cron: e.RETENTION_CRON,
      logDays: e.LOG_RETENTION_DAYS,
      auditDays: e.AUDIT_RETENTION_DAYS,
      pushDays: e.PUSH_RETENTION_DAYS,
      jobDays: e.JOB_RETENTION_DAYS,
      participantYears: e.PARTICIPANT_RETENTION_YEARS,
    },
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    /** Push through FCM when a service-account key is given; the project defaults to the key's. */
    fcm: e.FCM_SERVICE_ACCOUNT_FILE
      ? {
          projectId: e.FCM_PROJECT_ID,
          serviceAccountFile: path.resolve(e.FCM_SERVICE_ACCOUNT_FILE),
          apiUrl: e.FCM_API_URL,
        }
      : undefined,
  };
}

function secretsKeySource(
  e: Pick<z.infer<typeof envSchema>, 'SECRETS_KEY' | 'SECRETS_KEY_FILE' | 'DATABASE_URL'>,
  dataDir: string,
): SecretsKeySource {
  if (e.SECRETS_KEY && e.SECRETS_KEY_FILE) {
    throw new Error(
      'Invalid configuration:\n  SECRETS_KEY and SECRETS_KEY_FILE are both set: set one of them',
    );
  }
  if (e.SECRETS_KEY) return { kind: 'env', text: e.SECRETS_KEY };
  if (e.SECRETS_KEY_FILE) {
    const file = path.resolve(e.SECRETS_KEY_FILE);
    if (file === dataDir || file.startsWith(dataDir + path.sep)) {
      throw new Error(
        `Invalid configuration:\n  SECRETS_KEY_FILE (${file}) is inside DATA_DIR: keep the key outside it, so that a copy of the data directory does not carry the key`,
      );
    }
    return { kind: 'file', path: file };
  }
  if (e.DATABASE_URL) {
    throw new Error(
      'Invalid configuration:\n  DATABASE_URL is set but neither SECRETS_KEY nor SECRETS_KEY_FILE is: every instance ' +
        `sharing the database must use the same secrets key (${SECRETS_KEY_FORMAT}); see docs/security.md, Secrets at rest`,
    );
  }
  return { kind: 'default-file', path: defaultKeyFile(dataDir) };
}
