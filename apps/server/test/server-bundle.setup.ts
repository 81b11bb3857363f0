import { buildServerIfStale } from '../../../scripts/build-server.mjs';

/**
 * Global setup of the server test projects: the bundle `npm start` runs, built once before any file
 * runs (the projects' setups run one after the other, so the second finds it up to date). Built
 * inside a test, it replaced the directory under the bundled server of the other database's
 * project running the same test.
 */
export default async function setup() {
  await buildServerIfStale();
}
