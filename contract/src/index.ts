export * from './column-sets.js';
export * from './common.js';
export * from './devices.js';
export * from './endpoint.js';
export * from './limits.js';
export * from './location-data.js';
export * from './readings.js';
export * from './users.js';
