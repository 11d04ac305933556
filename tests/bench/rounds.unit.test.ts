import { formatRounds, type RowFigures } from '../../bench/rounds';

const figures = (label: string, perSecond: number, ratio: number | null, cpuMs: number | null): RowFigures => ({ label, perSecond, p99Ms: 10, ratio, toEmpty: null, cpuMs, mainMs: null });

describe('bench rounds', () => {
  it('prints each row once with the median, least and most of every figure all rounds have', () => {
    const lines = formatRounds([
      [figures('baseline', 3000, null, null), figures('creations', 400, 0.133, 3.5)],
      [figures('baseline', 2000, null, null), figures('creations', 300, 0.15, 4.5)],
      [figures('baseline', 2500, null, null), figures('creations', 350, 0.14, 4)],
    ]);
    expect(lines).toEqual([
      'over 3 rounds, median (least–most):',
      '  baseline',
      '    2500 req/s (2000–3000), 10 ms p99 (10–10)',
      '  creations',
      '    350 req/s (300–400), 0.140× (0.133–0.150), 10 ms p99 (10–10), 4.00 ms CPU (3.50–4.50)',
    ]);
  });

  it('takes the mean of the middle two over an even number of rounds', () => {
    const [, , line] = formatRounds([[figures('row', 100, null, null)], [figures('row', 200, null, null)]]);
    expect(line).toBe('    150 req/s (100–200), 10 ms p99 (10–10)');
  });
});
