// The simulated authority's defaults that its command line states in its help: a leaf with
// no imports, so `arcasync --help` reads them without loading the simulator.

// ARCA wants about 1.2 s between a fes session's requests; the simulator asks for this much
// by default (scaled down for local runs). The adapter paces the simulator at it (app/authority.ts).
export const defaultFesMinGapMs = 20;
