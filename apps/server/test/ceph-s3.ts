import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { processIsAlive } from '../src/lib/data-dir-lock.js';

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

/** Ports below Linux's ephemeral range (32768 and up), which the kernel never hands out by itself. */
const PORT_BLOCKS_FROM = 20_000;
const PORT_BLOCK_SIZE = 32;
const PORT_BLOCKS = 380;
/** Lock files of the blocks in use, one a cluster, shared by every test process of the machine. */
const PORT_LOCKS = path.join(os.tmpdir(), 'pathway-ceph-ports');

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A block of ports of its own for one cluster (its monitor, radosgw and the OSD's window). Ports
 * asked of the kernel (listen on 0) were not enough: between a port's release and the daemon's
 * bind, another test file's cluster (or any connection) could take it, and two clusters of
 * parallel test files then answered each other's daemons ("wrong fsid", stressed CI run of
 * 2026-11-26). A block is claimed by creating its lock file exclusively; the lock of a process
 * that died is taken over.
 */
async function claimPortBlock(): Promise<{ ports: number[]; release: () => Promise<void> }> {
  await fs.mkdir(PORT_LOCKS, { recursive: true });
  const start = Math.floor(Math.random() * PORT_BLOCKS);
  for (let n = 0; n < PORT_BLOCKS; n++) {
    const block = (start + n) % PORT_BLOCKS;
    const lock = path.join(PORT_LOCKS, `${block}.lock`);
    try {
      await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
    } catch {
      const holder = Number(await fs.readFile(lock, 'utf8').catch(() => ''));
      if (holder && processIsAlive(holder)) continue;
      // A dead holder's lock: removed, then claimed again exclusively (another process may win).
      await fs.rm(lock, { force: true });
      try {
        await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
      } catch {
        continue;
      }
    }
    const ports = Array.from(
      { length: PORT_BLOCK_SIZE },
      (_, i) => PORT_BLOCKS_FROM + block * PORT_BLOCK_SIZE + i,
    );
    const release = () => fs.rm(lock, { force: true });
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return { ports, release };
    await release();
  }
  throw new Error(`no free block of ${PORT_BLOCK_SIZE} ports from ${PORT_BLOCKS_FROM} for a Ceph cluster`);
}

/** Waits until `check` holds; `dead` names a daemon that has exited, which ends the wait at once. */
async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  dead: () => string | undefined,
  timeoutMs = 120_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < end) {
    const exited = dead();
    if (exited) throw new Error(`${exited} exited while waiting for ${what}`);
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
  // The OSD binds several ports: a window of the block, after the monitor's and radosgw's.
  const portBlock = await claimPortBlock();
  const [monPort, rgwPort, osdPortMin] = portBlock.ports as [number, number, number];
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
ms bind port max = ${portBlock.ports[portBlock.ports.length - 1]}
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
  const dead = () => {
    const exited = children.find((child) => child.exitCode !== null || child.signalCode !== null);
    return exited && `${exited.spawnfile} (${exited.exitCode ?? exited.signalCode})`;
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
    await portBlock.release();
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
    // A monitor just started can refuse a command while it forms its quorum ("EPERM: problem
    // getting command descriptions from mon", seen on a loaded CI machine): asked again until it
    // answers. A refused command created nothing.
    let osdId = '';
    await waitFor(
      async () => {
        osdId = (await run('ceph', ['osd', 'create'], options)).stdout.trim();
        return /^\d+$/.test(osdId);
      },
      'the monitor to take commands',
      dead,
    );
    await fs.mkdir(path.join(dir, 'osd', `osd.${osdId}`), { recursive: true });
    await run('ceph-osd', ['-i', osdId, '--mkfs'], options);
    daemon('ceph-osd', ['-i', osdId]);
    await waitFor(
      async () => {
        const dump = await run('ceph', ['osd', 'dump', '--format', 'json'], options);
        return (JSON.parse(dump.stdout) as { osds: { up: number }[] }).osds.some((o) => o.up === 1);
      },
      'the OSD',
      dead,
    );
    daemon('radosgw', ['-n', 'client.rgw']);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await waitFor(async () => (await fetch(`${endpoint}/`)).ok, 'radosgw', dead);
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
