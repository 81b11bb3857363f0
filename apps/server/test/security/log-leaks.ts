import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { IDENTIFIABLE_FIELDS } from '@pathway/contract';

/**
 * What the suite's logs must never hold. Every test file copies its server's log directory under
 * one root for the run (harness `keepLogs`); after the run, `scanLogs` reads every line there.
 *
 * Three nets, because no single one is enough:
 * - the values the factories seed (recognisable patterns: participant names, emails, phones,
 *   addresses), and the secrets the harness handed out (passwords, session JWTs, device tokens),
 *   recorded in `seeded-secrets.txt` under the root as they are made;
 * - shapes a secret always has, whoever made it (a JWT, a bearer token, a `jwt=` cookie);
 * - any log field named like a credential or an identifiable field whose value is not redacted.
 */
export const SECRETS_FILE = 'seeded-secrets.txt';

/** Participant values of test/factories.ts and test/programme-factories.ts, and admin passwords. */
export const SEEDED_PATTERNS: Array<{ what: string; pattern: RegExp }> = [
  { what: 'participant surname (factories)', pattern: /Lovelace\d+/ },
  { what: 'participant name (programme factories)', pattern: /\b(?:First|Last)\d+\b/ },
  { what: 'participant email', pattern: /\bada\d+@example\.org/ },
  { what: 'participant phone number', pattern: /\+?447700900\d{3}/ },
  { what: 'participant address', pattern: /Test Street|Somewhere, Leeds/ },
  { what: 'participant date of birth', pattern: /1960-05-17/ },
  { what: 'admin password (harness)', pattern: /pw-[0-9a-f]{16}/ },
  { what: 'JSON web token', pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./ },
  { what: 'bearer token', pattern: /Bearer\s+[A-Za-z0-9_-]{20,}/ },
  { what: 'session cookie', pattern: /\bjwt=[A-Za-z0-9_-]{10,}/ },
];

/** Log keys whose value, when present, must be the redaction marker: credentials and identifiable fields. */
const SENSITIVE_KEYS = new Set<string>([
  ...[
    'password',
    'mfa_token',
    'totp_secret',
    'auth_token',
    'token',
    'jwt',
    'cookie',
    'authorization',
    'set-cookie',
    'push_notification_id',
  ],
  ...IDENTIFIABLE_FIELDS,
]);

/** Remembers a secret the harness handed out, so the scan looks for it literally. */
export function recordSecret(root: string | undefined, value: string): void {
  if (!root || !value) return;
  appendFileSync(path.join(root, SECRETS_FILE), `${value}\n`);
}

function logFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return logFiles(full);
    return name.endsWith('.log') ? [full] : [];
  });
}

function sensitiveFields(value: unknown, trail: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => {
    const here = [...trail, key];
    const own =
      SENSITIVE_KEYS.has(key.toLowerCase()) && inner !== '[redacted]' && inner !== undefined
        ? [here.join('.')]
        : [];
    return [...own, ...sensitiveFields(inner, here)];
  });
}

const PREFIX = 6;

/**
 * Thousands of values against every line of a whole run: indexed by their first characters, so a
 * line costs one lookup per position instead of one search per value.
 */
function indexByPrefix(values: string[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const value of values) {
    const key = value.slice(0, PREFIX);
    index.set(key, [...(index.get(key) ?? []), value]);
  }
  return index;
}

function findsAny(line: string, index: Map<string, string[]>): boolean {
  if (index.size === 0) return false;
  for (let i = 0; i + PREFIX <= line.length; i++) {
    const candidates = index.get(line.slice(i, i + PREFIX));
    if (candidates?.some((value) => line.startsWith(value, i))) return true;
  }
  return false;
}

export interface LeakReport {
  files: number;
  lines: number;
  secretsLookedFor: number;
  leaks: string[];
}

export function scanLogs(root: string): LeakReport {
  mkdirSync(root, { recursive: true });
  const secretsPath = path.join(root, SECRETS_FILE);
  const secrets = existsSync(secretsPath)
    ? [
        ...new Set(
          readFileSync(secretsPath, 'utf8')
            .split('\n')
            .filter((s) => s.length >= PREFIX),
        ),
      ]
    : [];
  const secretsByPrefix = indexByPrefix(secrets);
  const files = logFiles(root);
  const leaks: string[] = [];
  let lines = 0;
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (!line.trim()) return;
        lines += 1;
        const where = `${path.relative(root, file)}:${index + 1}`;
        for (const { what, pattern } of SEEDED_PATTERNS)
          if (pattern.test(line)) leaks.push(`${where}: ${what}`);
        if (findsAny(line, secretsByPrefix))
          leaks.push(`${where}: a participant detail or secret the tests stored or handed out`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          return; // not every line need be JSON (a partly written last line); the patterns above still ran
        }
        for (const field of sensitiveFields(parsed)) leaks.push(`${where}: unredacted field ${field}`);
      });
  }
  return { files: files.length, lines, secretsLookedFor: secrets.length, leaks };
}
