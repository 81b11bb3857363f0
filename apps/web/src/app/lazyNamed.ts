import { lazy, type ComponentType } from 'react';

/**
 * A component that a module exports by name, loaded in a chunk of its own when it first renders
 * (inside a Suspense): the pages, and the parts of a participant's record that features supply.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's lazy takes any component; each keeps its own props
export function lazyNamed<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
