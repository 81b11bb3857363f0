// A PGlite database opened from a data-directory dump on a thread of its own, answering the queries
// its parent posts: { id, text } -> { id, rows } or { id, error }; { ready: true } once it is open.
// Plain JavaScript: Node 20 does not load a TypeScript entry into a worker thread through tsx
// (nodejs/node#47747), and the bundle builds this file beside main.js as it is.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create({ loadDataDir: new Blob([await readFile(workerData.dumpFile)]) });
parentPort.on('message', ({ id, text }) => {
  db.query(text).then(
    ({ rows }) => parentPort.postMessage({ id, rows }),
    (error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
parentPort.postMessage({ ready: true });
