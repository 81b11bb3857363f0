import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A throw-away S3-compatible server on 127.0.0.1 for tests: a single-node Ceph (one monitor, one
 * in-memory OSD) and radosgw, the real S3 API including multipart uploads and ListParts (which
 * @tus/s3-store needs). Debian packages: radosgw ceph-mon ceph-osd (.ci/run installs them).
 * Nothing outside its temporary directory; no authentication between its daemons.
 */
export interface CephS3 {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < end) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

export async function startCephS3(): Promise<CephS3> {
  try {
    await run('radosgw', ['--version']);
  } catch {
    throw new Error(
      'The S3 tests need Ceph radosgw: apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd',
    );
  }
  const accessKeyId = 'test-access-key';
  const secretAccessKey = 'test-secret-key';
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathway-ceph-'));
  await Promise.all(
    ['mon', 'osd', 'run', 'log', 'rgw'].map((d) => fs.mkdir(path.join(dir, d), { recursive: true })),
  );
  const monPort = await freePort();
  const rgwPort = await freePort();
  // The OSD binds several ports: a private window, so clusters of parallel test files never collide.
  const osdPortMin = Math.min(await freePort(), 65000);
  const fsid = randomUUID();
  const conf = path.join(dir, 'ceph.conf');
  await fs.writeFile(
    conf,
    `[global]
fsid = ${fsid}
mon host = v1:127.0.0.1:${monPort}
public addr = 127.0.0.1
cluster addr = 127.0.0.1
public network = 127.0.0.0/8
ms bind ipv4 = true
ms bind ipv6 = false
ms bind msgr2 = false
ms bind port min = ${osdPortMin}
ms bind port max = ${osdPortMin + 20}
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
osd pool default pg autoscale mode = off
osd pool default pg num = 8
osd pool default pgp num = 8
rgw dynamic resharding = false
paxos propose interval = 0.01
paxos min wait = 0.001
osd crush chooseleaf type = 0
mon max pg per osd = 1000
osd objectstore = memstore
memstore device bytes = ${1024 * 1024 * 1024}
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
keyring = ${dir}/keyring
mon data = ${dir}/mon/$name
osd data = ${dir}/osd/$name
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort} tcp_nodelay=1
rgw data = ${dir}/rgw
`,
  );
  const env = { ...process.env, CEPH_CONF: conf };
  const options = { env, timeout: 120_000 };
  const children: ChildProcess[] = [];
  const daemon = (command: string, args: string[]) => {
    const out = openSync(path.join(dir, 'log', `${command}.stdout`), 'a');
    const child = spawn(command, [...args, '-f'], { env, stdio: ['ignore', out, out] });
    closeSync(out);
    children.push(child);
  };
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stop = async () => {
    process.removeListener('exit', killAll);
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    await run(
      'monmaptool',
      [
        '--create',
        '--clobber',
        '--fsid',
        fsid,
        '--addv',
        'a',
        `[v1:127.0.0.1:${monPort}]`,
        path.join(dir, 'monmap'),
      ],
      options,
    );
    await run(
      'ceph-authtool',
      ['--create-keyring', path.join(dir, 'keyring'), '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *'],
      options,
    );
    await run(
      'ceph-mon',
      ['--mkfs', '-i', 'a', '--monmap', path.join(dir, 'monmap'), '--keyring', path.join(dir, 'keyring')],
      options,
    );
    daemon('ceph-mon', ['-i', 'a']);
    const { stdout } = await run('ceph', ['osd', 'create'], options);
    const osdId = stdout.trim();
    await fs.mkdir(path.join(dir, 'osd', `osd.${osdId}`), { recursive: true });
    await run('ceph-osd', ['-i', osdId, '--mkfs'], options);
    daemon('ceph-osd', ['-i', osdId]);
    await waitFor(async () => {
      const dump = await run('ceph', ['osd', 'dump', '--format', 'json'], options);
      return (JSON.parse(dump.stdout) as { osds: { up: number }[] }).osds.some((o) => o.up === 1);
    }, 'the OSD');
    daemon('radosgw', ['-n', 'client.rgw']);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await waitFor(async () => (await fetch(`${endpoint}/`)).ok, 'radosgw');
    await run(
      'radosgw-admin',
      [
        'user',
        'create',
        '--uid=test',
        '--display-name=test',
        `--access-key=${accessKeyId}`,
        `--secret=${secretAccessKey}`,
      ],
      options,
    );
    return { endpoint, accessKeyId, secretAccessKey, region: 'us-east-1', stop };
  } catch (error) {
    // The daemons' last words say why (a port taken, a start that timed out on a busy machine):
    // kept in the error, as the directory goes with the stop.
    const logs = await fs.readdir(path.join(dir, 'log')).catch(() => [] as string[]);
    const tails = await Promise.all(
      logs.map(async (name) => {
        const text = await fs.readFile(path.join(dir, 'log', name), 'utf8').catch(() => '');
        return `--- ${name}\n${text.split('\n').slice(-15).join('\n')}`;
      }),
    );
    await stop().catch(() => {});
    (error as Error).message += `\n${tails.join('\n')}`;
    throw error;
  }
}
