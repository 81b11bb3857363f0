import type { Database } from '../../db/client.js';
import { videoListJson } from './presenter.js';
import { listProgrammeVideos, type ProgrammeVideo } from './repository.js';

/** Sets kept at once; a programme service has a handful. */
const MAX_SETS = 32;
/**
 * Origins kept per set: one with PUBLIC_URL; without it the origin comes from the request's Host,
 * which a caller chooses, so the list is bounded and the oldest origin gives way.
 */
const MAX_ORIGINS = 4;

interface Entry {
  version: number;
  videos: ProgrammeVideo[];
  json: Map<string, Buffer>;
}

/**
 * The video list of each programme set as call 1 writes it, kept under the set's videos_version.
 * That version is raised by a trigger in the transaction of every change to the set's videos
 * (db/functions/video-set-version.sql) and call 1 reads it with the set on every call, so
 * a list kept here is used only while it is the one in the database: a change made through any web
 * instance (or by hand in SQL) is seen on the next call everywhere, with no message between them.
 */
export class ProgrammeVideoCache {
  private readonly sets = new Map<number, Entry>();

  constructor(private readonly db: Database) {}

  /** The set's video list as JSON for `origin`, as it is at `version` (read with the set). */
  async json(setId: number, version: number, origin: string): Promise<Buffer> {
    let entry = this.sets.get(setId);
    // Only the very version: the database may also have been restored to an older one.
    if (!entry || entry.version !== version) {
      const read = await listProgrammeVideos(this.db, setId);
      // The set was deleted since it was read: its list is the empty one, and nothing is kept.
      if (!read) return videoListJson([], origin);
      entry = { version: read.version, videos: read.videos, json: new Map() };
      // Read in a later snapshot than `version`, so it may be newer: it is kept under its own.
      this.sets.delete(setId);
      if (this.sets.size >= MAX_SETS) this.sets.delete(this.sets.keys().next().value!);
      this.sets.set(setId, entry);
    }
    let json = entry.json.get(origin);
    if (!json) {
      json = videoListJson(entry.videos, origin);
      if (entry.json.size >= MAX_ORIGINS) entry.json.delete(entry.json.keys().next().value!);
      entry.json.set(origin, json);
    }
    return json;
  }
}
