import { dayFromToday } from '../../test/months.js';
import type { Makers } from './makers.js';
import { MOVE_DAY, ROLES, type Samples, type World } from './world.js';

/* The authorisation matrix's sample requests, part 2: statements, deliveries, declarations, campaigns, occupancies, integrations, occupants, device removal and replacement (docs/security.md). */

export function letterAndOccupantSamples(w: World, m: Makers): Samples {
  const { ids } = w;
  return {
    'GET /statements/pdf': { request: () => ({ query: { month: '2026-01', lang: 'en' } }), expect: { fresh: 404 } },
    'POST /statements/publications': {
      request: () => ({ body: { month: '2026-01', locationIds: [ids.buildingA1!] } }),
    },
    'GET /statements/difference': { request: () => ({ query: { month: '2026-01' } }) },
    'GET /statements/deliveries': { request: () => ({}) },
    'GET /deliveries': { request: () => ({ query: { month: '2026-01' } }), expect: { fresh: 403, group3: 403 } },
    // Building B1 has no publication in the matrix's world: no letters to print.
    'GET /deliveries/print/:buildingId': {
      request: () => ({ params: { buildingId: ids.buildingB1! }, query: { month: '2026-01' } }),
      expect: { group1: 404 },
    },
    // Devices over their lifetime (docs/device-lifetime.md): groups 1 and 2, each within its scope.
    'GET /lifetime/due': { request: () => ({ query: { months: 60 } }), expect: { fresh: 403, group3: 403 } },
    'GET /lifetime/due/work-list': { request: () => ({ query: { lang: 'en' } }), expect: { fresh: 403, group3: 403 } },
    'GET /lifetime/remote-register': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'GET /lifetime/remote-register/pdf': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'PUT /lifetime/remote-register/:buildingId/exception': {
      request: () => ({ params: { buildingId: ids.buildingA1! }, body: { note: 'Not cost-efficient' } }),
    },
    'GET /lifetime/walk-by': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    // The back office's declarations (docs/declared-readings.md): groups 1 and 2, each within its scope.
    'POST /declarations/phone': {
      request: async () => ({
        body: { deviceId: await m.declaredDevice(), value: 12.5, day: '2026-01-25', callerName: 'Klientas-A2' },
      }),
      expect: m.declarationStatuses(201),
    },
    'GET /declarations': { request: () => ({ query: { month: '2026-01' } }), expect: { fresh: 403, group3: 403 } },
    'GET /declarations/:id/photo': {
      request: async () => ({ params: { id: await m.declaration() } }),
      expect: m.declarationStatuses(200),
    },
    'POST /declarations/:id/decision': {
      request: async () => ({ params: { id: await m.declaration() }, body: { accept: false, reason: 'Unreadable' } }),
      expect: m.declarationStatuses(200),
    },
    'GET /declarations/devices': {
      request: async () => {
        await m.declaredDevice();
        return { query: { month: '2025-12' } };
      },
      expect: { fresh: 403, group3: 403 },
    },
    // Beta has no declared device: nothing to print there.
    'GET /declarations/devices/print-list': {
      request: async () => {
        await m.declaredDevice();
        return { query: { month: '2025-12', lang: 'en' } };
      },
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    // Exchange campaigns: group 1 manages; group 2 reads its scope and records visits without access.
    'GET /campaigns': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'GET /campaigns/:id': {
      request: async () => ({ params: { id: await m.campaign() } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'POST /campaigns': { request: () => ({ body: { name: 'Matrix campaign', deviceIds: [ids.deviceA1!] } }) },
    'PUT /campaigns/:id': { request: async () => ({ params: { id: await m.campaign() }, body: { name: 'Renamed' } }) },
    'DELETE /campaigns/:id': { request: async () => ({ params: { id: await m.campaign() } }) },
    'PUT /campaigns/:id/buildings/:buildingId/visit': {
      request: async () => ({
        params: { id: await m.campaign(), buildingId: ids.buildingA1! },
        body: { visit: { Day: '2030-01-15', From: '08:00', To: '12:00' } },
      }),
    },
    'POST /campaigns/:id/notices': { request: async () => ({ params: { id: await m.campaign() } }) },
    'GET /campaigns/:id/print-list': {
      request: async () => ({ params: { id: await m.campaign() }, query: { lang: 'en' } }),
    },
    'POST /campaigns/:id/devices/:deviceId/no-access': {
      request: async () => ({
        params: { id: await m.campaign(), deviceId: ids.deviceA1! },
        body: { day: '2030-01-15', reason: 'Nobody home' },
      }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'GET /statements/notification': { request: () => ({}) },
    'PUT /statements/notification': { request: () => ({ body: { optIn: false, language: 'lt' } }) },
    'GET /occupancies/flats/:id': {
      request: () => ({ params: { id: ids.flatA1! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'POST /occupancies/flats/:id/moves': {
      request: () => ({
        params: { id: ids.flatA2! },
        body: {
          day: '2025-06-10',
          clientCode: 'CLIENT-A2',
          name: 'Klientas-A2',
        },
      }),
    },
    'PUT /occupancies/:id': {
      request: async () => {
        const o = await m.occupancy();
        return {
          params: { id: o.id },
          body: { clientCode: 'CLIENT-B2', name: 'Klientas-B2', moveIn: o.move_in, moveOut: o.move_out },
        };
      },
    },
    'PUT /occupancies/move-values/:deviceId/:day': {
      request: async () => {
        await m.move();
        return { params: { deviceId: ids.deviceA1!, day: MOVE_DAY }, body: { value: 11, reason: 'Read on site' } };
      },
    },
    'DELETE /occupancies/move-values/:deviceId/:day': { request: m.manualMoveValue },
    'GET /data-quality/move-values/:deviceId': {
      request: () => ({ params: { deviceId: ids.deviceA1! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /statements/flats/:flatId/occupancies': {
      request: () => ({ params: { flatId: ids.flatA1! }, query: { month: '2026-01' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /occupancies/:id/personal-data': { request: async () => ({ params: { id: (await m.occupancy()).id } }) },
    'GET /integrations/keys': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'POST /integrations/keys': {
      request: () => ({
        body: { name: `key ${++w.serial}`, locationIds: [ids.buildingA1!], expiresOn: dayFromToday(180) },
      }),
      expect: { fresh: 403, group3: 403, group2Beta: 400 },
    },
    'POST /integrations/keys/:id/revoke': {
      request: async () => ({ params: { id: await m.integrationKey() } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'GET /billing/export': { request: () => ({ query: { month: '2026-01' } }) },
    'GET /billing/export/file': { request: () => ({ query: { month: '2026-01', format: 'csv' } }) },
    'GET /integrations/receivers': { request: () => ({}) },
    'POST /integrations/receivers': {
      request: () => ({ body: { name: `hook ${++w.serial}`, kind: 'webhook', url: 'https://billing.example/hook' } }),
    },
    'POST /integrations/receivers/:id/disable': { request: async () => ({ params: { id: await m.receiver() } }) },
    'GET /integrations/deliveries': { request: () => ({}) },
    // The occupant's endpoints (docs/occupant-access.md): no back-office token opens them.
    'POST /occupant/sessions/link': {
      request: () => ({ body: { token: `not-a-token-${++w.serial}` } }),
      expect: Object.fromEntries(ROLES.map((r) => [r, 401])),
    },
    'POST /occupant/sessions/code': {
      // A flat that does not exist answers like a wrong code (another flat each time: the per-flat limit).
      request: () => ({ body: { flat: 900_000 + ++w.serial, code: 'ABCDE-FGHJK' } }),
      expect: Object.fromEntries(ROLES.map((r) => [r, 401])),
    },
    'DELETE /occupant/session': { request: () => ({}) },
    'GET /occupant/profile': { request: () => ({}) },
    'PUT /occupant/consent': { request: () => ({ body: { electronic: true } }) },
    'GET /occupant/months': { request: () => ({}) },
    'GET /occupant/months/:month': { request: () => ({ params: { month: '2026-01' } }) },
    'GET /occupant/months/:month/pdf': { request: () => ({ params: { month: '2026-01' } }) },
    'GET /occupant/declarations': { request: () => ({}) },
    'POST /occupant/declarations': { request: () => ({ body: { deviceId: 1, value: 1 } }) },
    'POST /occupant/declarations/photos': { request: () => ({}) },
    'GET /occupancies/:id/access': { request: m.occupantAccess, expect: m.occupantAccessStatuses(200) },
    'POST /occupancies/:id/access/revoke': { request: m.occupantAccess, expect: m.occupantAccessStatuses(200) },
    'POST /occupancies/:id/access/reissue': { request: m.occupantAccess, expect: m.occupantAccessStatuses(201) },
    'PUT /masterData/devices/:id': {
      request: () => ({ params: { id: ids.deviceA1! }, body: { description: 'Virtuve' } }),
    },
    'POST /masterData/devices/:id/remove': {
      request: () => ({
        params: { id: ids.removeAlfa! },
        body: { removedAt: '2026-02-01T00:00+02:00', finalReading: 5 },
      }),
    },
    'POST /masterData/devices/:id/replace': {
      request: () => ({
        params: { id: ids.replaceAlfa! },
        body: { replacedAt: '2026-02-01T00:00+02:00', finalReading: 5, newDeviceCode: 'RP-NEW', initialReading: 0 },
      }),
    },
  };
}
