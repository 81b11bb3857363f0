/**
 * One line of bench/results.md. Every benchmark module returns rows of this shape; bench/run.ts
 * prints them as one table and writes them to bench/results.md.
 */
export interface BenchRow {
  /** What is measured, e.g. "GET /api/participant page of 100 from 100k, state filter + sort: p99". */
  figure: string;
  /** The measured value with its unit, e.g. "12.4 ms", "3,410 req/s", "0.82x". */
  value: string;
  /** The goal from the issue, e.g. "< 20 ms"; "" when the row is context (a reference figure). */
  goal: string;
  /** Whether the value meets the goal; null for reference rows without a goal. */
  met: boolean | null;
  /** Storage mode, data size, rounds, anything needed to read the value. */
  conditions: string;
  /**
   * A CPU-per-request figure's total in ms (server and database), so that bench/run.ts can set
   * the same figure on the two databases side by side.
   */
  cpuMsPerRequest?: number;
  /** Why a missed goal is missed here (bench/missed-goals.ts); written by bench/run.ts. */
  whyMissed?: string;
}

/** The database a row was measured on, from the start of its conditions (bench/run.ts names it there). */
export function storageOf(row: Pick<BenchRow, 'conditions'>): 'PGlite' | 'PostgreSQL' | undefined {
  if (/^PGlite\b/.test(row.conditions)) return 'PGlite';
  if (/^PostgreSQL\b/.test(row.conditions)) return 'PostgreSQL';
  return undefined;
}

/** A benchmark module: measures one area and returns its rows. */
export type Benchmark = (options: {
  storage: 'pglite' | 'postgres';
  postgresUrl?: string;
}) => Promise<BenchRow[]>;
