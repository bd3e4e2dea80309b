import { describe, expect, it } from 'vitest';
import { inject } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makers } from './makers.js';
import { accountAndDeviceSamples } from './samples-accounts-devices.js';
import { letterAndOccupantSamples } from './samples-letters-occupants.js';
import { lorawanSamples } from './samples-lorawan.js';
import { contractEndpoints, defaultStatus, keyOf, leaks, matrixWorld, ROLES, type Samples } from './world.js';

/*
 * The authorisation matrix (docs/security.md): every endpoint of the contract ×
 * every kind of caller, in a world of two municipalities (Alfa, Beta), each with
 * two buildings, flats, devices, readings and users. For each pair it asserts
 * the status, and a leak detector scans every answer for the names and ids of
 * locations, devices and accounts outside the caller's scope.
 */

describe(`authorisation matrix: every endpoint × every caller (${dbKind()})`, () => {
  const w = matrixWorld();
  const { t, tokens, parts } = w;
  const m = makers(w);
  /** One request per endpoint (made for each role), and the statuses that differ from the default of its `auth`. */
  const samples: Samples = {
    ...accountAndDeviceSamples(w, m),
    ...letterAndOccupantSamples(w, m),
    ...lorawanSamples(w),
  };

  it('has a sample request for every endpoint of the contract', () => {
    const missing = contractEndpoints()
      .map(keyOf)
      .filter((k) => !(k in samples));
    expect(missing).toEqual([]);
  });

  for (const endpoint of contractEndpoints()) {
    describe(keyOf(endpoint), () => {
      for (const role of ROLES) {
        it(`${role}: the expected status, nothing out of scope`, async () => {
          const sample = samples[keyOf(endpoint)];
          expect(sample, 'no sample request').toBeDefined();
          const s = await sample!.request(role);
          const token = s.token !== undefined ? s.token : tokens[role];
          // Sample bodies are built for every endpoint alike, so they go as payloads.
          const res = await inject(t.app, endpoint, {
            params: s.params,
            query: s.query,
            token: token ?? undefined,
            ...(s.raw
              ? { payload: s.raw.text, headers: { 'content-type': s.raw.type } }
              : s.body === undefined
                ? {}
                : { payload: s.body as object }),
          });
          const want = sample!.expect?.[role] ?? defaultStatus(endpoint, role);
          expect(res.status, res.text.slice(0, 500)).toBe(want);
          expect(leaks(parts, role, res.text)).toEqual([]);
        });
      }
    });
  }
});
