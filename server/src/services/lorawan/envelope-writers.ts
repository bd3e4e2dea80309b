import { createRequire } from 'node:module';

/**
 * LNS events written as ChirpStack v4 and The Things Stack write them (docs/lorawan.md), for
 * the demo (fed through the same endpoints as a real LNS), the tests and the benchmark. The
 * Protobuf form is built with the official @chirpstack/chirpstack-api types.
 */

export interface UplinkSpec {
  devEui: string;
  devAddr?: string;
  fCnt: number;
  fPort: number;
  payload: Buffer;
  /** The LNS's time, ISO 8601. */
  time: string;
  deduplicationId?: string;
  deviceName?: string;
  object?: Record<string, unknown>;
  gateways?: { id: string; rssi: number; snr: number }[];
}

/** ChirpStack's JSON marshaler: camelCase, zero values left out. */
export function chirpstackUplinkJson(u: UplinkSpec): Record<string, unknown> {
  return {
    ...(u.deduplicationId ? { deduplicationId: u.deduplicationId } : {}),
    time: u.time,
    deviceInfo: {
      tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
      tenantName: 'Rodmenys',
      applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
      applicationName: 'meters',
      deviceProfileName: 'meters',
      deviceName: u.deviceName ?? u.devEui,
      devEui: u.devEui.toLowerCase(),
      tags: {},
    },
    devAddr: (u.devAddr ?? '01020304').toLowerCase(),
    adr: true,
    dr: 5,
    ...(u.fCnt ? { fCnt: u.fCnt } : {}),
    ...(u.fPort ? { fPort: u.fPort } : {}),
    ...(u.payload.length ? { data: u.payload.toString('base64') } : {}),
    ...(u.object ? { object: u.object } : {}),
    rxInfo: (u.gateways ?? []).map((g) => ({
      gatewayId: g.id,
      uplinkId: 1,
      rssi: g.rssi,
      snr: g.snr,
      context: 'AAAA',
    })),
    txInfo: {
      frequency: 868100000,
      modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } },
    },
  };
}

const require = createRequire(import.meta.url);

interface Settable {
  [setter: string]: (v: unknown) => unknown;
}
type Pb = Record<string, new () => Settable & { serializeBinary(): Uint8Array }>;

/** The same uplink in ChirpStack's Protobuf marshaler (integration.UplinkEvent). */
export function chirpstackUplinkProtobuf(u: UplinkSpec): Buffer {
  const pb = require('@chirpstack/chirpstack-api/integration/integration_pb.js') as Pb;
  const gw = require('@chirpstack/chirpstack-api/gw/gw_pb.js') as Pb;
  const { Timestamp } = require('google-protobuf/google/protobuf/timestamp_pb.js') as {
    Timestamp: { fromDate(d: Date): unknown };
  };
  const { Struct } = require('google-protobuf/google/protobuf/struct_pb.js') as {
    Struct: { fromJavaScript(o: unknown): unknown };
  };
  const up = new pb.UplinkEvent!();
  if (u.deduplicationId) up.setDeduplicationId!(u.deduplicationId);
  up.setTime!(Timestamp.fromDate(new Date(u.time)));
  const info = new pb.DeviceInfo!();
  info.setDevEui!(u.devEui.toLowerCase());
  info.setDeviceName!(u.deviceName ?? u.devEui);
  up.setDeviceInfo!(info);
  up.setDevAddr!((u.devAddr ?? '01020304').toLowerCase());
  up.setFCnt!(u.fCnt);
  up.setFPort!(u.fPort);
  up.setData!(new Uint8Array(u.payload));
  if (u.object) up.setObject!(Struct.fromJavaScript(u.object));
  up.setRxInfoList!(
    (u.gateways ?? []).map((g) => {
      const rx = new gw.UplinkRxInfo!();
      rx.setGatewayId!(g.id);
      rx.setRssi!(g.rssi);
      rx.setSnr!(g.snr);
      return rx;
    }),
  );
  return Buffer.from(up.serializeBinary());
}

/** The Things Stack's webhook uplink message. */
export function ttsUplink(u: UplinkSpec): Record<string, unknown> {
  return {
    end_device_ids: {
      device_id: u.deviceName ?? `eui-${u.devEui.toLowerCase()}`,
      application_ids: { application_id: 'meters' },
      dev_eui: u.devEui.toUpperCase(),
      join_eui: '0000000000000000',
      dev_addr: (u.devAddr ?? '01020304').toUpperCase(),
    },
    correlation_ids: ['as:up:01HZZZZZZZZZZZZZZZZZZZZZZZ'],
    received_at: u.time,
    uplink_message: {
      session_key_id: 'AYy5qLNH0kQ1cUCD1Fbq+A==',
      ...(u.fPort ? { f_port: u.fPort } : {}),
      ...(u.fCnt ? { f_cnt: u.fCnt } : {}),
      ...(u.payload.length ? { frm_payload: u.payload.toString('base64') } : {}),
      ...(u.object ? { decoded_payload: u.object } : {}),
      rx_metadata: (u.gateways ?? []).map((g) => ({
        gateway_ids: { gateway_id: `gw-${g.id}`, eui: g.id.toUpperCase() },
        rssi: g.rssi,
        channel_rssi: g.rssi,
        snr: g.snr,
      })),
      settings: { data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 } }, frequency: '868100000' },
      received_at: u.time,
      consumed_airtime: '0.061696s',
    },
  };
}
