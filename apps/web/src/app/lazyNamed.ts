import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A lazily loaded component whose chunk can be loaded ahead of its first render. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own LazyExoticComponent
export type Preloadable<C extends ComponentType<any>> = LazyExoticComponent<C> & {
  /** Loads (and runs) the chunk now; the first render then finds it ready. */
  preload(): Promise<void>;
};

/**
 * A component that a module exports by name, loaded in a chunk of its own when it first renders
 * (inside a Suspense), or earlier by `preload()`: the pages, and the parts of a participant's
 * record that features supply. One import either way; a failed one (a dropped connection) is
 * tried again next time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's lazy takes any component; each keeps its own props
export function lazyNamed<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
): Preloadable<M[K]> {
  let loading: Promise<M> | undefined;
  const loadOnce = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return Object.assign(
    lazy(async () => ({ default: (await loadOnce())[name] })),
    { preload: async () => void (await loadOnce()) },
  );
}
