import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL 15 cluster of the test's own (initdb in a temporary directory, a free loopback
 * port), so a test can stop and start it without touching the shared one on 5432. PostgreSQL
 * refuses to run as root, so as root (CI) the cluster belongs to the `postgres` user.
 */
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
export const postgresBinariesPresent =
  existsSync(path.join(POSTGRES_BIN, 'initdb')) && existsSync(path.join(POSTGRES_BIN, 'pg_ctl'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly asPostgresUser: boolean,
  ) {}

  get adminUrl(): string {
    return `postgres://pathway@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivatePostgres> {
    const asPostgresUser = process.getuid?.() === 0;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-private-pg-'));
    if (asPostgresUser) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dir, uid, gid);
    }
    const cluster = new PrivatePostgres(dir, await freePort(), asPostgresUser);
    // Trust on loopback: a throwaway cluster that lives as long as one test file.
    cluster.run('initdb', [
      '-D',
      path.join(dir, 'data'),
      '-U',
      'pathway',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    cluster.start();
    return cluster;
  }

  /** Starts (or restarts) the cluster and waits until it accepts connections. */
  start(): void {
    // fsync off: this cluster is about availability (stop, start), not about durability.
    this.run('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }

  /** `immediate`: every backend is cut off at once, as in a crash of the database server. */
  stop(mode: 'fast' | 'immediate' = 'immediate'): void {
    // fsync off: this cluster is about availability (stop, start), not about durability.
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', mode, '-w', '-t', '60', 'stop']);
  }

  async createDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    return `postgres://pathway@127.0.0.1:${this.port}/${name}`;
  }

  destroy(): void {
    try {
      this.stop('immediate');
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private run(tool: string, args: string[]): void {
    const binary = path.join(POSTGRES_BIN, tool);
    const [command, argv] = this.asPostgresUser
      ? ['runuser', ['-u', 'postgres', '--', binary, ...args]]
      : [binary, args];
    execFileSync(command, argv, { stdio: 'pipe', cwd: this.dir });
  }
}
