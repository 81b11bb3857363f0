import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { repoRoot } from './process.js';

const run = promisify(execFile);

/** Debian's nginx (`apt-get install nginx`; .ci/run installs it). */
export const NGINX = '/usr/sbin/nginx';

/** Why the proxy tests cannot run here, or undefined when they can. */
export function nginxMissing(): string | undefined {
  const probe = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  if (probe.error) return `nginx is not installed (${NGINX}): apt-get install -y nginx`;
  return undefined;
}

export function freePort(): Promise<number> {
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

/**
 * The nginx configuration docs/operations.md gives operators, exactly: the fenced block between
 * `<!-- nginx:begin -->` and `<!-- nginx:end -->`. The test runs this text, so the documentation cannot
 * drift from what was tested.
 */
export function documentedNginxSnippet(): string {
  const doc = readFileSync(path.join(repoRoot, 'docs/operations.md'), 'utf8');
  const block = doc.match(/<!-- nginx:begin -->\s*```nginx\n([\s\S]*?)```\s*<!-- nginx:end -->/);
  if (!block)
    throw new Error(
      'docs/operations.md has no nginx block between <!-- nginx:begin --> and <!-- nginx:end -->',
    );
  return block[1]!;
}

/**
 * The documented snippet with only the deployment-specific lines replaced: the upstream servers (one
 * line per web instance, each with the parameters the documentation gives its own), the listening
 * address and the certificate paths. Every other directive is the documentation's.
 */
export function proxyServerConfig(options: {
  upstreams: string[];
  listen: string;
  cert: string;
  key: string;
}): string {
  const snippet = documentedNginxSnippet();
  const replace = (text: string, pattern: RegExp, by: string) => {
    if (!pattern.test(text)) throw new Error(`the documented nginx block has no line matching ${pattern}`);
    return text.replace(pattern, by);
  };
  // The documented `server 127.0.0.1:<port> <parameters>;` lines, one after another.
  const serverLines =
    /^ {4}server 127\.0\.0\.1:\d+((?: [^;\n]+)?);\n(?: {4}server 127\.0\.0\.1:\d+[^;\n]*;\n)*/m;
  const parameters = serverLines.exec(snippet)?.[1] ?? '';
  let config = replace(
    snippet,
    serverLines,
    options.upstreams.map((u) => `    server ${u}${parameters};\n`).join(''),
  );
  config = replace(config, /^ {4}listen 443 ssl;$/m, `    listen ${options.listen} ssl;`);
  config = replace(config, /^ {4}ssl_certificate {5}\S+;$/m, `    ssl_certificate     ${options.cert};`);
  config = replace(config, /^ {4}ssl_certificate_key \S+;$/m, `    ssl_certificate_key ${options.key};`);
  return config;
}

/**
 * One line of the proxy's access log: the client, the request, the status the client got, and
 * which upstream servers nginx tried for it in turn with what each gave (`502` for one that died
 * on it), and the load generator's request number (the `x-load-request` header), when it sent one.
 */
export interface ProxyLogEntry {
  client: string;
  request: string;
  status: number;
  upstreams: string[];
  upstreamStatuses: string[];
  loadRequest: number | undefined;
}

const LOG_LINE =
  /^(\S+) - \S+ \[[^\]]+\] "([^"]*)" (\d+) \d+ upstream="([^"]*)" upstream_status="([^"]*)" load="([^"]*)"$/;

export function parseProxyLog(text: string): ProxyLogEntry[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const m = LOG_LINE.exec(line);
      if (!m) throw new Error(`unexpected nginx access log line: ${line}`);
      const list = (value: string) => (value === '-' ? [] : value.split(/, | : /));
      return {
        client: m[1]!,
        request: m[2]!,
        status: Number(m[3]),
        upstreams: list(m[4]!),
        upstreamStatuses: list(m[5]!),
        loadRequest: m[6] === '-' ? undefined : Number(m[6]),
      };
    });
}

export interface TlsProxy {
  /** https://127.0.0.1:<port>: the public origin (PUBLIC_URL) of the servers behind it. */
  origin: string;
  port: number;
  /** The self-signed certificate (PEM) clients must trust. */
  ca: string;
  /** nginx's access log: one line per request with the client's address and the upstreams tried. */
  accessLog(): string;
  stop(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI. */
export async function selfSignedCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { cert, key };
}

/**
 * Debian's nginx as a child process (no daemon, no master's fork into the background) with its own
 * configuration, pid file, temporary and log paths in a temporary directory, terminating TLS on a
 * free loopback port in front of `upstreams` (host:port of the web instances).
 */
export async function startTlsProxy(upstreams: string[]): Promise<TlsProxy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-nginx-'));
  // nginx's workers drop to another user when started as root: they must be able to read here.
  chmodSync(dir, 0o755);
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs'])
    mkdirSync(path.join(dir, sub), { recursive: true });
  const { cert, key } = await selfSignedCertificate(dir);
  chmodSync(key, 0o644);
  const port = await freePort();
  const server = proxyServerConfig({ upstreams, listen: `127.0.0.1:${port}`, cert, key });
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `# Test scaffolding around the documented server block: where nginx keeps its files.
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
    log_format upstreams '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
                         'upstream="$upstream_addr" upstream_status="$upstream_status" load="$http_x_load_request"';
    access_log ${dir}/logs/access.log upstreams;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
${server}
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', conf, '-e', `${dir}/logs/error.log`, '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const ca = readFileSync(cert, 'utf8');
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'logs/error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  // Ready when a TLS handshake completes on the port (or failed when nginx exits first).
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`nginx exited with ${code}: ${out}\n${errorLog()}`))),
  );
  exited.catch(() => {});
  const handshake = async () => {
    const end = Date.now() + 30_000;
    for (;;) {
      const ok = await new Promise<boolean>((resolve) => {
        const socket = tls.connect({ host: '127.0.0.1', port, ca }, () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (ok) return;
      if (Date.now() > end) throw new Error(`nginx did not accept TLS connections: ${out}\n${errorLog()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await Promise.race([handshake(), exited]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    ca,
    accessLog: () => readFileSync(path.join(dir, 'logs/access.log'), 'utf8'),
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT'); // graceful: finish the requests in flight
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * nginx in front of `count` servers on loopback: free ports for the servers first (nginx needs its
 * upstreams), then the proxy (its origin is the servers' PUBLIC_URL), then the servers, started
 * side by side by `start(port, origin)`. A port found free can be taken by a parallel test before
 * it is bound: then everything again with other ports (the failure names the port in use), a few
 * times at most.
 */
export async function startBehindTlsProxy<T extends { stop(): Promise<unknown> }>(
  count: number,
  start: (port: number, origin: string) => Promise<T>,
): Promise<{ proxy: TlsProxy; servers: T[] }> {
  const portTaken = (error: unknown) => /EADDRINUSE|Address already in use/.test(String(error));
  for (let attempt = 1; ; attempt += 1) {
    const ports = new Set<number>();
    while (ports.size < count) ports.add(await freePort());
    let proxy: TlsProxy | undefined;
    const servers: T[] = [];
    try {
      proxy = await startTlsProxy([...ports].map((port) => `127.0.0.1:${port}`));
      const origin = proxy.origin;
      const results = await Promise.allSettled([...ports].map((port) => start(port, origin)));
      for (const result of results) if (result.status === 'fulfilled') servers.push(result.value);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return { proxy, servers };
    } catch (error) {
      await Promise.all(servers.map((server) => server.stop()));
      await proxy?.stop();
      if (attempt === 3 || !portTaken(error)) throw error;
    }
  }
}

/**
 * A fetch that trusts the proxy's certificate and connects from `localAddress` (any 127.x.y.z is
 * this machine's loopback), so the client's address differs from nginx's own 127.0.0.1 and the
 * server's records show which one it took.
 */
export function proxyFetch(proxy: TlsProxy, localAddress = '127.0.0.1'): typeof fetch {
  const dispatcher = new Agent({ connect: { ca: proxy.ca }, localAddress, connections: 64 });
  return ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}
