import { createConnection } from '../../services/lorawan/connections.js';
import { createMapping } from '../../services/lorawan/mappings.js';
import type { Samples, World } from './world.js';

/* The authorisation matrix's sample requests, part 3: LoRaWAN (docs/lorawan.md, docs/security.md). */

export function lorawanSamples(w: World): Samples {
  const { t, ids } = w;
  /** A connection made for one call (a delete or a rotation takes it). */
  const connection = async () =>
    (await createConnection(t.db, { kind: 'chirpstack', name: `matrix lns ${++w.serial}`, locationIds: [] }, null)).Id;
  const mapping = async () =>
    (await createMapping(t.db, { model: `Matrix model ${++w.serial}`, valueField: 'volume', unit: 'm3' }, null)).Id;
  const body = { kind: 'tts', name: 'x', locationIds: [] };
  return {
    // The LNS endpoints take a connection key only: a user's token is none (401 for every role).
    'POST /lorawan/chirpstack': {
      request: () => ({ query: { event: 'up' }, raw: { type: 'application/json', text: '{}' } }),
    },
    'POST /lorawan/tts/uplink': { request: () => ({ raw: { type: 'application/json', text: '{}' } }) },
    'POST /lorawan/tts/join': { request: () => ({ raw: { type: 'application/json', text: '{}' } }) },
    'POST /lorawan/tts/events': { request: () => ({ raw: { type: 'application/json', text: '{}' } }) },
    'GET /lorawan/connections': { request: () => ({}) },
    'POST /lorawan/connections': { request: () => ({ body: { ...body, name: `matrix new ${++w.serial}` } }) },
    'GET /lorawan/connections/:id': { request: async () => ({ params: { id: await connection() } }) },
    'PUT /lorawan/connections/:id': {
      request: async () => ({ params: { id: await connection() }, body: { locationIds: [ids.buildingA1!] } }),
    },
    'DELETE /lorawan/connections/:id': { request: async () => ({ params: { id: await connection() } }) },
    'POST /lorawan/connections/:id/key': { request: async () => ({ params: { id: await connection() } }) },
    'GET /lorawan/connections/:id/health': { request: async () => ({ params: { id: await connection() } }) },
    'GET /lorawan/devices/:id': { request: () => ({ params: { id: ids.deviceA1! } }) },
    'GET /lorawan/devices': { request: () => ({}) },
    'GET /lorawan/unmatched': { request: () => ({}) },
    'GET /lorawan/decoders': { request: () => ({}) },
    'GET /lorawan/mappings': { request: () => ({}) },
    'POST /lorawan/mappings': {
      request: () => ({ body: { model: `Matrix new model ${++w.serial}`, valueField: 'a.b', unit: 'kWh' } }),
    },
    'PUT /lorawan/mappings/:id': {
      request: async () => ({
        params: { id: await mapping() },
        body: { model: `Matrix changed ${++w.serial}`, valueField: 'total', unit: 'l', scale: 1 },
      }),
    },
    'DELETE /lorawan/mappings/:id': { request: async () => ({ params: { id: await mapping() } }) },
  };
}
