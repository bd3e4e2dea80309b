import { DEVICE_TYPE } from '@rodmenys/contract';
import type { Makers } from './makers.js';
import { ROLES, type Samples, type World } from './world.js';

/* The authorisation matrix's sample requests, part 1: health, accounts, devices, locations, collectors, master data, data quality, statements (docs/security.md). */

export function accountAndDeviceSamples(w: World, m: Makers): Samples {
  const { ids } = w;
  return {
    'GET /health': { request: () => ({}) },
    'GET /ready': { request: () => ({}) },
    'POST /users/authenticate': {
      request: () => ({ body: { username: `nobody${++w.serial}`, password: 'wrong-guess' } }),
      expect: Object.fromEntries(ROLES.map((r) => [r, 400])),
    },
    'POST /users/register': {
      request: () => ({
        body: { firstName: 'New', lastName: 'Person', username: `newcomer${++w.serial}`, password: 'password1' },
      }),
    },
    'POST /users/logout': { request: async (role) => ({ token: await m.secondToken(role) }) },
    'GET /users/getAll': {
      request: () => ({ query: { pageSize: 500 } }),
      expect: { fresh: 403, group3: 403 },
    },
    'GET /users/:id': {
      request: () => ({ params: { id: ids.g3_alfa! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'PUT /users/:id': {
      request: () => ({ params: { id: ids.g3_alfa! }, body: { firstName: 'Gintaras' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'DELETE /users/:id': {
      request: async () => ({ params: { id: await m.victim() } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'POST /users/:id/signOutEverywhere': {
      request: async () => ({ params: { id: await m.victim() } }),
      expect: { fresh: 404, group3: 404, group2Beta: 404 },
    },
    'GET /users/:id/rights': {
      request: () => ({ params: { id: ids.g3_alfa! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'PUT /users/:id/rights': {
      request: () => ({ params: { id: ids.g3_alfa! }, body: { locationIds: [ids.buildingA1!] } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'GET /devices/UserLocationRights/:userId': {
      request: () => ({ params: { userId: ids.g3_alfa! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /devices/GetDevicesByParams': { request: () => ({ query: { country: 'Lietuva', deviceOnly: 0 } }) },
    'GET /devices/GetDeviceDataByUserId': { request: () => ({}) },
    'GET /devices/GetDeviceTypeLookUp': { request: () => ({}) },
    'GET /devices/GetDevicesData': { request: () => ({ query: { ...m.period, deviceTypeId: DEVICE_TYPE.allocator } }) },
    'GET /devices/GetDevicesByLocationId': {
      request: () => ({ query: { locationId: ids.buildingA1! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /devices/typesInSelection': { request: () => ({ query: m.period }) },
    'GET /devices/flagged': { request: () => ({ query: m.period }) },
    'GET /devices/:id/history': {
      request: () => ({ params: { id: ids.deviceA1! }, query: m.period }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /locationData/getAllObjects': { request: () => ({ query: { pageSize: 500 } }) },
    'GET /locationData/getUserObjects': { request: () => ({ query: { pageSize: 500 } }) },
    'GET /locationData/tree': { request: () => ({}) },
    'GET /locationData/Country': { request: () => ({ query: { search: 'Lie' } }) },
    'GET /locationData/County': { request: () => ({ query: { search: 'Apskritis' } }) },
    'GET /locationData/Region': { request: () => ({ query: { search: 'Savivaldybe' } }) },
    'GET /locationData/City': { request: () => ({ query: { search: 'Miestas' } }) },
    'GET /locationData/Street': { request: () => ({ query: { search: 'Gatve' } }) },
    'GET /locationData/Building': { request: () => ({ query: { search: 'Namas' } }) },
    'POST /ingest/wmbusmeters': { request: () => ({ raw: { type: 'application/json', text: '{}' } }) },
    'POST /ingest/csv': { request: () => ({ raw: { type: 'text/csv', text: m.csv } }) },
    'GET /ingest/unmatched': { request: () => ({}) },
    'GET /collector-keys': { request: () => ({}) },
    'POST /collector-keys': { request: () => ({ body: { name: `key ${++w.serial}` } }) },
    'DELETE /collector-keys/:id': { request: () => ({ params: { id: w.collectorKeyId } }) },
    'POST /meter-keys/import': { request: () => ({ raw: { type: 'text/csv', text: 'manufacturer;meter id;key\n' } }) },
    'GET /collectors/health': { request: () => ({}) },
    'GET /collectors/:id/meters': { request: () => ({ params: { id: w.collectorKeyId } }) },
    'PUT /collectors/:id/locations': {
      request: () => ({ params: { id: w.collectorKeyId }, body: { locationIds: [] } }),
    },
    'GET /collectors/config': { request: () => ({}) },
    'POST /collectors/alarms': { request: () => ({ query: { type: 'DeviceInactivity' } }) },
    'GET /audit': { request: () => ({}) },
    'GET /audit/export': { request: () => ({}) },
    'POST /masterData/register/preview': { request: () => ({ raw: { type: 'text/csv', text: m.csv } }) },
    'POST /masterData/register/apply': { request: () => ({ raw: { type: 'text/csv', text: m.csv } }) },
    'GET /masterData/register/template': { request: () => ({ query: { format: 'csv' } }) },
    'GET /masterData/locations': { request: () => ({}) },
    'GET /masterData/locations/search': { request: () => ({ query: { text: 'Alfa' } }) },
    'GET /masterData/locations/:id': { request: () => ({ params: { id: ids.buildingA1! } }) },
    'PUT /masterData/locations/:id': { request: () => ({ params: { id: ids.flatA1! }, body: { flatOrder: 1 } }) },
    'PUT /masterData/locations/:id/client': {
      request: () => ({ params: { id: ids.flatA1! }, body: { clientCode: 'CLIENT-A1' } }),
    },
    'GET /masterData/clients': { request: () => ({ query: { search: 'CLIENT' } }) },
    'POST /masterData/devices': {
      request: () => ({
        body: { locationId: ids.flatA1!, deviceTypeId: DEVICE_TYPE.coldWaterMeter, deviceCode: `NEW-${++w.serial}` },
      }),
    },
    'GET /data-quality/month-ends/:deviceId': {
      request: () => ({ params: { deviceId: ids.deviceA1! }, query: { from: '2026-01', till: '2026-02' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'PUT /data-quality/month-ends/:deviceId/:month': {
      request: () => ({
        params: { deviceId: ids.deviceA1!, month: '2026-01' },
        body: { value: 11, reason: 'Read on site' },
      }),
    },
    'DELETE /data-quality/month-ends/:deviceId/:month': {
      request: () => ({ params: { deviceId: ids.deviceA1!, month: '2026-01' } }),
    },
    'GET /data-quality/month-ends': {
      request: () => ({ query: { month: '2026-02', deviceTypeId: DEVICE_TYPE.coldWaterMeter } }),
    },
    'GET /data-quality/anomalies': { request: () => ({}) },
    'GET /data-quality/anomalies/counts': { request: () => ({}) },
    'POST /data-quality/anomalies/:id/acknowledge': {
      request: async () => ({ params: { id: await m.anomaly() }, body: { comment: 'Seen' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'POST /data-quality/anomalies/:id/resolve': {
      request: async () => ({ params: { id: await m.anomaly() }, body: { comment: 'Fixed' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /data-quality/settings': { request: () => ({}) },
    'PUT /data-quality/settings/:key': { request: () => ({ params: { key: 'window.days' }, body: { value: 14 } }) },
    'GET /data-quality/jobs': { request: () => ({}) },
    'POST /data-quality/jobs/:name/run': { request: () => ({ params: { name: 'collectors' } }) },
    'GET /data-quality/digest': { request: () => ({}) },
    'PUT /data-quality/digest': { request: () => ({ body: { optIn: false, language: 'en' } }) },
    'GET /data-quality/degree-days': { request: () => ({ query: { year: 2026 } }) },
    'PUT /data-quality/degree-days/:cityId/:month': {
      request: async () => ({ params: { cityId: await m.city(), month: '2026-01' }, body: { value: 300 } }),
    },
    'POST /data-quality/degree-days/csv': {
      request: async () => ({ raw: { type: 'text/csv', text: `${await m.city()};2026-02;280` } }),
    },
    'GET /heat-methods/buildings/:id': {
      request: () => ({ params: { id: ids.buildingA1! } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'PUT /heat-methods/buildings/:id/:month': {
      request: () => ({
        params: { id: ids.buildingA1!, month: '2026-01' },
        body: {
          HotWaterHeat: 'norm',
          KwhPerM3: 51,
          CirculationNorm: 80,
          HotWaterTemperature: 60,
          DistrictHeat: true,
          Seasons: [{ From: '2025-10-15', To: '2026-04-30' }],
          CommonShare: 0,
          BaseShare: 0,
          MinimumShare: 0,
          Flats: [],
        },
      }),
    },
    'GET /statements/figures': { request: () => ({ query: { month: '2026-01' } }) },
    'GET /statements/flats/:flatId': {
      request: () => ({ params: { flatId: ids.flatA1! }, query: { month: '2026-01' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
  };
}
