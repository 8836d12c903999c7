// Pure helpers of the benchmarks: medians, target marks and the printed tables (checked by figures.test.ts).

/** The median of `values` (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const middle = Math.floor(finite.length / 2);
  return finite.length % 2 === 1
    ? (finite[middle] as number)
    : ((finite[middle - 1] as number) + (finite[middle] as number)) / 2;
}

/** A target of the issue: the figure must be at least or at most `limit`. */
export type Target = { atLeast: number } | { atMost: number };

export type Mark = '«met»' | '«not met»';

/** Whether `value` meets `target`; a missing figure (NaN) never does. */
export function mark(value: number, target: Target): Mark {
  if (!Number.isFinite(value)) return '«not met»';
  const met = 'atLeast' in target ? value >= target.atLeast : value <= target.atMost;
  return met ? '«met»' : '«not met»';
}

/** `value` as a fixed-decimals string, or `—` when there is none. */
export function fixed(value: number | undefined, decimals = 0): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(decimals);
}

/** `part / whole` as a percentage with one decimal, e.g. `12.5 %`. */
export function percent(part: number, whole: number): string {
  return whole > 0 && Number.isFinite(part) ? `${((part / whole) * 100).toFixed(1)} %` : '—';
}

/**
 * Rows of cells as a table aligned on spaces, the first row being the header, underlined: the first `leftAligned`
 * columns are aligned left (words), the others right (figures).
 */
export function table(rows: readonly (readonly string[])[], leftAligned = 1): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i < leftAligned ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  if (!header) return '';
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

/** Resident memory read at a moment of a load run: seconds since the load began, megabytes. */
export type MemorySample = { seconds: number; mb: number };

/**
 * Whether memory stayed flat across a load run at least `minSeconds` long: from the first sample (taken once the
 * first round has warmed the heap to its working size) to the last one it grew by at most `allowedGrowth` (10 %).
 * Returns the growth with its mark, or no mark when the run was too short to tell.
 */
export function memoryFlatness(
  samples: readonly MemorySample[],
  minSeconds: number,
  allowedGrowth = 0.1,
): { growth: number; mark: Mark | undefined } {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || samples.length < 2) return { growth: Number.NaN, mark: undefined };
  const growth = (last.mb - first.mb) / first.mb;
  if (last.seconds < minSeconds) return { growth, mark: undefined };
  return { growth, mark: mark(growth, { atMost: allowedGrowth }) };
}

/** The `p`th percentile of `values` (nearest rank: the smallest value with at least p % of them at or below it). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}
