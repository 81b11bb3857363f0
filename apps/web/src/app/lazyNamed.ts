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
 *
 * A chunk already loaded renders at once, without suspending. React's `lazy` suspends on any
 * promise, even one already settled (its callbacks run later), and React 19 then holds what it
 * reveals until 300 ms after the fallback was shown (its Suspense throttling): a page preloaded
 * while the session was checked, or on a pointer's press, still waited those 300 ms behind a
 * spinner on its first visit (bench/results.md, issue 41, the fresh tab). Given the module in a
 * thenable that answers as soon as it is asked, `lazy` has it in the same render.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's lazy takes any component; each keeps its own props
export function lazyNamed<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
): Preloadable<M[K]> {
  let loading: Promise<M> | undefined;
  let loaded: M | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const component = (): PromiseLike<{ default: M[K] }> => {
    const ready = loaded;
    if (!ready) return loadOnce().then((module) => ({ default: module[name] }));
    const answer = { default: ready[name] };
    return {
      then: <T>(resolve?: ((value: typeof answer) => T) | null) =>
        Promise.resolve(resolve ? resolve(answer) : answer) as PromiseLike<T>,
    } as PromiseLike<{ default: M[K] }>;
  };
  return Object.assign(lazy(component as () => Promise<{ default: M[K] }>), {
    preload: async () => void (await loadOnce()),
  });
}
