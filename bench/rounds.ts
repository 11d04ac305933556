/** One row's figures in one round of the http section. */
export type RowFigures = Readonly<{
  label: string;
  perSecond: number;
  p99Ms: number;
  /** To the baseline's throughput in the same round; null for the baseline itself. */
  ratio: number | null;
  /** The seeded row's throughput to the empty database's in the same round; null for the others. */
  toEmpty: number | null;
  /** Per request, the server process's CPU and its main thread's (null where not read). */
  cpuMs: number | null;
  mainMs: number | null;
}>;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `median (min–max)` of one figure over the rounds, or nothing where a round lacks it. */
const spread = (values: readonly (number | null)[], digits: number, unit: string): string | null => {
  if (values.some((value) => value === null)) return null;
  const known = values as number[];
  const format = (value: number) => value.toFixed(digits);
  return `${format(median(known))}${unit} (${format(Math.min(...known))}–${format(Math.max(...known))})`;
};

/**
 * Each row's figures over several rounds: the median, and the least and most, of its throughput,
 * ratio to the baseline, p99 and CPU per request. A shared machine's speed moves between rounds
 * (the baseline with it): the median ratio and CPU per request are the figures to compare.
 */
export const formatRounds = (rounds: readonly (readonly RowFigures[])[]): string[] => {
  const labels = [...new Set(rounds.flatMap((round) => round.map((row) => row.label)))];
  const lines = [`over ${rounds.length} rounds, median (least–most):`];
  for (const label of labels) {
    const rows = rounds.flatMap((round) => round.filter((row) => row.label === label));
    const parts = [
      spread(rows.map((row) => row.perSecond), 0, ' req/s'),
      spread(rows.map((row) => row.ratio), 3, '×'),
      spread(rows.map((row) => row.toEmpty), 3, '× the empty database'),
      spread(rows.map((row) => row.p99Ms), 0, ' ms p99'),
      spread(rows.map((row) => row.cpuMs), 2, ' ms CPU'),
      spread(rows.map((row) => row.mainMs), 2, ' ms main thread'),
    ].filter((part) => part !== null);
    lines.push(`  ${label.trim()}`, `    ${parts.join(', ')}`);
  }
  return lines;
};
