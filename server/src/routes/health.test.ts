import * as contract from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';

// The database away (stopped and started again) is tested on a real server: database-away.durable.test.ts.
describe(`GET /api/health and GET /api/ready (${dbKind()})`, () => {
  const t = useApp();

  it('answer 200 without a token when the process and the database answer', async () => {
    expect((await inject(t.app, contract.getHealth, {})).body).toEqual({ Status: 'ok' });
    const ready = await inject(t.app, contract.getReady, {});
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ Status: 'ok', Database: 'ok', Standby: 'none' });
  });
});
