import type { AppContext } from '../context.js';
import type { JobDefinition } from './queue.js';

/**
 * Every kind of background work, with its handler bound to the process's services. A module that
 * adds a job adds its definition here.
 */
export function jobDefinitions(_ctx: AppContext): JobDefinition<never>[] {
  return [];
}
