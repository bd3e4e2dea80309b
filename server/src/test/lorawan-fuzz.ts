import { CHIRPSTACK_EVENTS } from '@rodmenys/contract';
import fc from 'fast-check';
import { chirpstackUplinkJson, chirpstackUplinkProtobuf, ttsUplink } from '../services/lorawan/envelope-writers.js';

/*
 * Generated LNS events for the fuzz (routes/fuzz.test.ts, docs/lorawan.md): uplinks in both
 * envelopes with hostile fields (DevEUIs of the wrong length or with a line break, bad base64,
 * payloads of 0 to 255 bytes, times that are not times, huge counters), Protobuf bytes cut or
 * flipped, and JSON of any shape.
 */

const devEui = fc.oneof(
  fc.stringMatching(/^[0-9a-fA-F]{16}$/),
  fc.stringMatching(/^[0-9a-fA-F]{15}$/),
  fc.stringMatching(/^[0-9a-fA-F]{8}\n[0-9a-fA-F]{7}$/),
  fc.string({ maxLength: 20 }),
);
const time = fc.oneof(
  fc
    .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom('2026-11-20T10:00:00.123456789+02:00', '2026-02-30T00:00:00Z', '1970-01-01T00:00:00Z', ''),
  fc.string({ maxLength: 30 }),
);
const spec = fc.record({
  devEui,
  fCnt: fc.oneof(fc.nat(), fc.constantFrom(0, 2 ** 32 - 1)),
  fPort: fc.integer({ min: 0, max: 255 }),
  payload: fc.uint8Array({ maxLength: 255 }).map((b) => Buffer.from(b)),
  time,
  devAddr: fc.stringMatching(/^[0-9a-f]{8}$/),
});

const withJunk = (o: Record<string, unknown>) =>
  fc
    .record({ data: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 40 })), object: fc.option(fc.jsonValue()) })
    .map((j) => ({
      ...o,
      ...(j.data !== undefined ? { data: j.data } : {}),
      ...(j.object !== null ? { object: j.object } : {}),
    }));

/** A ChirpStack request: its query and body. */
export const chirpstackRequest = fc
  .tuple(
    fc.constantFrom(...CHIRPSTACK_EVENTS, 'unknown', ''),
    fc.oneof(
      spec
        .chain((s) => withJunk(chirpstackUplinkJson(s)))
        .map((o) => ({ payload: JSON.stringify(o), contentType: 'application/json' })),
      spec
        .filter((s) => /^[0-9a-fA-F]{16}$/.test(s.devEui) && !Number.isNaN(Date.parse(s.time)))
        .chain((s) =>
          fc
            .tuple(fc.constant(chirpstackUplinkProtobuf(s)), fc.nat(), fc.integer({ min: 0, max: 255 }))
            .map(([b, at, v]) => {
              const bytes = Buffer.from(b);
              if (bytes.length) bytes[at % bytes.length] = v;
              return { payload: bytes, contentType: 'application/octet-stream' };
            }),
        ),
      fc.uint8Array({ maxLength: 300 }).map((b) => ({ payload: Buffer.from(b), contentType: 'application/protobuf' })),
      fc.jsonValue({ maxDepth: 6 }).map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })),
    ),
  )
  .map(([event, body]) => ({ query: `event=${encodeURIComponent(event)}`, ...body }));

/** A The Things Stack request body. */
export const ttsRequest = fc.oneof(
  spec.map((s) => ({ payload: JSON.stringify(ttsUplink(s)), contentType: 'application/json' })),
  fc.jsonValue({ maxDepth: 6 }).map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })),
);
