// The simulated authority's defaults, for the command line's help (cli/commands/authority/simulate.ts):
// a leaf, so every command's start does not load the simulator to print a number.
export { defaultFesMinGapMs } from '../adapters/authority/simulated/defaults.js';
