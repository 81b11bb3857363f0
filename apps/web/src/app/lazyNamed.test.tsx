import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyNamed } from './lazyNamed';

function Page() {
  return <h1>The page</h1>;
}

describe('lazyNamed', () => {
  it('draws a component whose chunk is loaded in the same render, without its fallback', async () => {
    const Lazy = lazyNamed(async () => ({ Page }), 'Page');
    await Lazy.preload();
    // React holds content revealed after a fallback for 300 ms: a preloaded page must not suspend.
    const seen: string[] = [];
    function Fallback() {
      seen.push('fallback');
      return <p>Loading</p>;
    }
    await act(async () => {
      render(
        <Suspense fallback={<Fallback />}>
          <Lazy />
        </Suspense>,
      );
    });
    expect(screen.getByRole('heading', { name: 'The page' })).toBeInTheDocument();
    expect(seen).toEqual([]);
  });

  it('loads a chunk not yet loaded when first drawn, behind its fallback, and tries a failed one again', async () => {
    let tries = 0;
    const Lazy = lazyNamed(async () => {
      tries += 1;
      if (tries === 1) throw new Error('dropped connection');
      return { Page };
    }, 'Page');
    await expect(Lazy.preload()).rejects.toThrow('dropped connection');
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Lazy />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeInTheDocument();
    expect(tries).toBe(2);
  });
});
