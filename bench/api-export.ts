import { readFileSync } from 'node:fs';
import type { ApiEnvironment } from './lib/api-env.js';
import { count, median, ms } from './lib/stats.js';

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

interface ExportRun {
  totalMs: number;
  firstByteMs: number;
  rows: number;
  bytes: number;
  peakRssMb: number;
}

/** One whole export read to its end as the console reads it, with the server's memory sampled. */
async function exportOnce(url: string, cookie: string, pid: number): Promise<ExportRun> {
  let peakRssMb = rssMb(pid);
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rssMb(pid));
  }, 20);
  try {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    let firstByteMs = 0;
    let rows = -1;
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - started;
      bytes += value.length;
      for (const byte of value) if (byte === 10) rows++;
    }
    return { totalMs: performance.now() - started, firstByteMs, rows, bytes, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The whole-list CSV export (GET /api/participant/export) at the largest size, full access (so
 * every batch is audited too), sorted by surname: the time to the whole file, to its first byte,
 * and the server's peak memory beside its memory before (flat, as rows are streamed in batches).
 */
export async function measureExport(env: ApiEnvironment, participants: number): Promise<void> {
  await env.withServer(async (server) => {
    const url = `${server.url}/api/participant/export?sort=last_name&order=asc`;
    const before = rssMb(server.pid);
    const runs: ExportRun[] = [];
    for (let round = 0; round < Math.max(1, Math.min(3, env.sizes.rounds)); round += 1) {
      runs.push(await exportOnce(url, env.cookie, server.pid));
    }
    const total = median(runs.map((r) => r.totalMs));
    const rows = runs[0]!.rows;
    env.add({
      figure: `GET /api/participant/export, whole list sorted by surname, full access: time to the last row`,
      value: `${ms(total)} (first byte ${ms(median(runs.map((r) => r.firstByteMs)))})`,
      goal: '< 10 s',
      met: total < 10_000 && rows === participants,
      conditions: `${count(participants)} participants, ${count(rows)} rows, ${(runs[0]!.bytes / 1048576).toFixed(1)} MB of CSV, each batch of 2,000 audited; median of ${runs.length} runs`,
    });
    const peak = Math.max(...runs.map((r) => r.peakRssMb));
    env.add({
      figure: 'GET /api/participant/export: server memory while streaming',
      value: `${peak.toFixed(0)} MB peak (${before.toFixed(0)} MB before)`,
      goal: '< +150 MB',
      met: peak - before < 150,
      conditions: `${count(participants)} participants; resident set of the server process sampled every 20 ms`,
    });
  });
}
