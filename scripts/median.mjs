// The median the benchmarks and `npm run lighthouse` report: of an odd count the middle value, of an
// even count the upper of the two middle ones (a run's numbers are few, and never averaged).
/** @param {number[]} values */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
