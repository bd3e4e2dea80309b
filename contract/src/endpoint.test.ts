import { describe, expect, it } from 'vitest';
import type { Endpoint } from './endpoint.js';
import * as contract from './index.js';

const endpoints = (): [string, Endpoint][] =>
  Object.entries(contract as Record<string, unknown>).filter(
    (entry): entry is [string, Endpoint] =>
      typeof entry[1] === 'object' && entry[1] !== null && 'method' in entry[1] && 'path' in entry[1],
  );

describe('endpoint facts declared with the endpoint', () => {
  it('a standby may answer only the heavy reads, each a GET', () => {
    const standby = endpoints().filter(([, e]) => e.standbyMayAnswer);
    expect(standby.map(([name]) => name).sort()).toEqual([
      'countAnomalies',
      'exportAuditLog',
      'getAuditLog',
      'getDeviceHistory',
      'getDevicesData',
      'getFlatStatement',
      'getStatementFigures',
      'getStatementsPdf',
      'listAnomalies',
    ]);
    expect(standby.filter(([, e]) => e.method !== 'GET')).toEqual([]);
  });
});
