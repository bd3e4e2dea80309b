import type { Endpoint } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';

// Master data, the audit log, CSV import, the unmatched inbox, collector keys and
// the data-quality settings, jobs and manual month-end values
// are the provider operator's (group 1) alone: their endpoints say `auth:
// 'operator'` in the contract, and the server checks it before anything else.
describe(`operator-only endpoints (${dbKind()})`, () => {
  const t = useApp();
  const tokens: Record<'operator' | 'admin' | 'manager', string> = { operator: '', admin: '', manager: '' };
  const endpoints = Object.values(contract as Record<string, unknown>).filter(
    (value): value is Endpoint =>
      typeof value === 'object' && value !== null && 'auth' in value && (value as Endpoint).auth === 'operator',
  );

  beforeAll(async () => {
    tokens.operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    tokens.admin = (await makeSignedIn(t.app, { groupId: GROUP.admin })).token;
    tokens.manager = (await makeSignedIn(t.app, { groupId: GROUP.user })).token;
  });

  const ask = (endpoint: Endpoint, token?: string) =>
    inject(t.app, endpoint, {
      params: {
        id: 1,
        buildingId: 1,
        deviceId: 1,
        cityId: 1,
        month: '2026-01',
        day: '2026-01-15',
        key: 'window.days',
        name: 'validate',
      } as never,
      token,
    });

  it('are the master-data, audit, CSV import, unmatched inbox, collector key, collector fleet, meter key, data-quality settings, degree-days, statement publishing, billing receiver, occupancy-editing, print list, access request and LoRaWAN endpoints, and those that manage exchange campaigns', () => {
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      [
        'GET /audit',
        'GET /audit/export',
        'GET /collector-keys',
        'POST /collector-keys',
        'DELETE /collector-keys/:id',
        'POST /meter-keys/import',
        'GET /collectors/health',
        'GET /collectors/:id/meters',
        'PUT /collectors/:id/locations',
        'GET /ingest/unmatched',
        'POST /ingest/csv',
        'DELETE /lorawan/connections/:id',
        'DELETE /lorawan/mappings/:id',
        'GET /lorawan/connections',
        'GET /lorawan/connections/:id',
        'GET /lorawan/connections/:id/health',
        'GET /lorawan/decoders',
        'GET /lorawan/devices',
        'GET /lorawan/devices/:id',
        'GET /lorawan/mappings',
        'GET /lorawan/unmatched',
        'POST /lorawan/connections',
        'POST /lorawan/connections/:id/key',
        'POST /lorawan/mappings',
        'PUT /lorawan/connections/:id',
        'PUT /lorawan/mappings/:id',
        'GET /masterData/clients',
        'POST /masterData/devices',
        'PUT /masterData/devices/:id',
        'POST /masterData/devices/:id/remove',
        'POST /masterData/devices/:id/replace',
        'GET /masterData/locations',
        'GET /masterData/locations/search',
        'GET /masterData/locations/:id',
        'PUT /masterData/locations/:id',
        'PUT /masterData/locations/:id/client',
        'POST /masterData/register/preview',
        'POST /masterData/register/apply',
        'GET /masterData/register/template',
        'PUT /data-quality/month-ends/:deviceId/:month',
        'DELETE /data-quality/month-ends/:deviceId/:month',
        'GET /data-quality/settings',
        'PUT /data-quality/settings/:key',
        'GET /data-quality/jobs',
        'POST /data-quality/jobs/:name/run',
        'GET /data-quality/degree-days',
        'PUT /data-quality/degree-days/:cityId/:month',
        'POST /data-quality/degree-days/csv',
        'POST /statements/publications',
        'GET /statements/difference',
        'GET /statements/deliveries',
        'GET /integrations/receivers',
        'POST /integrations/receivers',
        'POST /integrations/receivers/:id/disable',
        'GET /integrations/deliveries',
        'POST /occupancies/flats/:id/moves',
        'PUT /occupancies/:id',
        'PUT /occupancies/move-values/:deviceId/:day',
        'DELETE /occupancies/move-values/:deviceId/:day',
        'GET /occupancies/:id/personal-data',
        'GET /deliveries/print/:buildingId',
        'PUT /heat-methods/buildings/:id/:month',
        'PUT /lifetime/remote-register/:buildingId/exception',
        'POST /campaigns',
        'PUT /campaigns/:id',
        'DELETE /campaigns/:id',
        'PUT /campaigns/:id/buildings/:buildingId/visit',
        'POST /campaigns/:id/notices',
        'GET /campaigns/:id/print-list',
      ].sort(),
    );
  });

  it('answer 401 without a token and 403 to groups 2 and 3, before looking at the input', async () => {
    for (const endpoint of endpoints) {
      const what = `${endpoint.method} ${endpoint.path}`;
      const anonymous = await ask(endpoint);
      expect(anonymous.status, what).toBe(401);
      for (const token of [tokens.admin, tokens.manager]) {
        const refused = await ask(endpoint, token);
        expect(refused.status, what).toBe(403);
        expect(refused.error, what).toMatchObject({
          code: 'operatorsOnly',
          message: 'Only the provider’s operators (group 1) may do this',
        });
      }
      // The operator gets past the check: the input (here missing) or the id is what is judged.
      expect([200, 400, 404], what).toContain((await ask(endpoint, tokens.operator)).status);
    }
  });
});
