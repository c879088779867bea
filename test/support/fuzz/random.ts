// The fuzz suite draws from the simulated authority's seeded source (mulberry32): the same seed
// gives the same requests, so a failure found by the fuzz suite can be replayed with FUZZ_SEED.
export type { Random } from '../../../adapters/authority/simulated/random.js';
export { seededRandom } from '../../../adapters/authority/simulated/random.js';
