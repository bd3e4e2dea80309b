/* A building's heat split by the regulator's method (docs/heat-method.md). */
export { formulaKwhPerM3 } from './energy.js';
export { daysInMonth, monthStretches, splitDays } from './periods.js';
export { splitBuildingMonth } from './split.js';
export * from './types.js';
