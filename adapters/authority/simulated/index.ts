// The simulated authority, laid out like the scraper (../arca/): one module per host or
// service (login, portal and registry, mis-comprobantes, sct, ccma, dfe, monotributo), their
// shared state, scripted faults, the server, and the oracle tests compare with.

export type { SimulatedAuthority } from './server.js';
export { representationsPath, startSimulatedAuthority } from './server.js';
export type { SimulatedFailures } from './state.js';
export { defaultFesMinGapMs } from './defaults.js';
