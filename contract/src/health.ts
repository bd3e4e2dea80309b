import { Type } from '@sinclair/typebox';
import { defineEndpoint } from './endpoint.js';

/** For systemd, HAProxy and orchestrators (docs/operations.md, "The database away"). */
export const getHealth = defineEndpoint({
  method: 'GET',
  path: '/health',
  summary: 'The process answers (liveness): 200 whatever the database. Asks nothing of the database.',
  tags: ['health'],
  auth: 'none',
  response: Type.Object({ Status: Type.Literal('ok') }),
});

export const getReady = defineEndpoint({
  method: 'GET',
  path: '/ready',
  summary:
    'The server can answer requests (readiness): the database answers, and the standby too when DATABASE_READ_URL is ' +
    'set. Otherwise 503 `databaseUnavailable` with Retry-After.',
  tags: ['health'],
  auth: 'none',
  response: Type.Object({
    Status: Type.Literal('ok'),
    Database: Type.Literal('ok'),
    Standby: Type.Union([Type.Literal('ok'), Type.Literal('none')], {
      description: '`none` when no standby is configured',
    }),
  }),
});
