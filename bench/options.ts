/** How `npm run bench` was asked to run. */
export interface BenchOptions {
  /** `--quick`: fewer repetitions and shorter loads, so the whole run takes under 3 minutes. */
  quick: boolean;
}
