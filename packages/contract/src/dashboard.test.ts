import { describe, expect, it } from 'vitest';
import { averageVideosPerDay, hasProgressData, watchedVideosChart } from './dashboard.js';

describe('dashboard figures', () => {
  it('average is the sum of daily counts over the number of days in the data', () => {
    expect(averageVideosPerDay([])).toBe(0);
    expect(averageVideosPerDay([{ created_at: '2025-01-01', created_count: 5 }])).toBe(5);
    expect(
      averageVideosPerDay([
        { created_at: '2025-01-01', created_count: 5 },
        { created_at: '2025-01-09', created_count: 2 },
      ]),
    ).toBe(3.5);
  });

  it('the chart runs from 7 days before the latest day in the data to that day, zero-filled, in order', () => {
    expect(watchedVideosChart([])).toEqual([]);
    const chart = watchedVideosChart([
      { created_at: '2024-12-30', created_count: 9 },
      { created_at: '2025-01-02', created_count: 4 },
      { created_at: '2024-12-01', created_count: 1 },
    ]);
    expect(chart.map((p) => p.created_at)).toEqual([
      '2024-12-26',
      '2024-12-27',
      '2024-12-28',
      '2024-12-29',
      '2024-12-30',
      '2024-12-31',
      '2025-01-01',
      '2025-01-02',
    ]);
    expect(chart.map((p) => p.created_count)).toEqual([0, 0, 0, 0, 9, 0, 0, 4]);
  });

  it('shows the progress row only when someone has progress', () => {
    expect(hasProgressData({ onTrack: 0, slightlyBehind: 0, behind: 0 })).toBe(false);
    expect(hasProgressData({ onTrack: 0, slightlyBehind: 0, behind: 1 })).toBe(true);
  });
});
