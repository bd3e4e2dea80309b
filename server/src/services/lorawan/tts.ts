import {
  devEuiOf,
  type Gateway,
  gatewaysOf,
  intOf,
  type LnsEvent,
  member,
  numberOf,
  objectOf,
  optionalTimeOf,
  parseEventJson,
  payloadOf,
  textOf,
  timeOf,
} from './envelopes.js';
import { checkStorableObject } from './storable.js';

/**
 * The Things Stack's webhooks (docs/lorawan.md, "The Things Stack"): one message per request,
 * `{end_device_ids, received_at, <message>}` where the message's field names its kind
 * (`uplink_message`, `join_accept`, `downlink_ack`, `service_data`, …). Zero values are left out.
 */

/** The message fields The Things Stack sends, and the kind each is counted as. */
const KINDS: Record<string, string> = {
  uplink_message: 'up',
  join_accept: 'join',
  downlink_ack: 'ack',
  downlink_nack: 'nack',
  downlink_sent: 'txack',
  downlink_failed: 'downlinkFailed',
  downlink_queued: 'downlinkQueued',
  downlink_queue_invalidated: 'downlinkQueueInvalidated',
  location_solved: 'location',
  service_data: 'serviceData',
  uplink_normalized: 'uplinkNormalized',
};

const gateway = (g: Record<string, unknown>, field: string): Gateway | null => {
  const ids = member(g, 'gateway_ids', `${field}.gateway_ids`);
  const id =
    textOf(ids?.eui, `${field}.gateway_ids.eui`, 64) ?? textOf(ids?.gateway_id, `${field}.gateway_ids.gateway_id`, 64);
  if (!id) return null;
  return {
    id,
    rssi: numberOf(g.rssi, `${field}.rssi`) ?? numberOf(g.channel_rssi, `${field}.channel_rssi`) ?? 0,
    snr: numberOf(g.snr, `${field}.snr`) ?? 0,
  };
};

/** A The Things Stack message from its JSON text. */
export function readTts(text: string): LnsEvent {
  const o = parseEventJson(text);
  const ids = member(o, 'end_device_ids', 'end_device_ids');
  const field = Object.keys(KINDS).find((k) => o[k] !== undefined && o[k] !== null);
  const kind = field ? KINDS[field]! : 'other';
  if (kind === 'up') {
    const up = member(o, 'uplink_message', 'uplink_message')!;
    checkStorableObject(up.decoded_payload, 'uplink_message.decoded_payload');
    return {
      kind: 'up',
      devEui: devEuiOf(ids?.dev_eui, 'end_device_ids.dev_eui'),
      devAddr: (textOf(ids?.dev_addr, 'end_device_ids.dev_addr', 16) ?? '').toUpperCase(),
      fCnt: intOf(up.f_cnt, 'uplink_message.f_cnt', 0, 0xffffffff) ?? 0,
      fPort: intOf(up.f_port, 'uplink_message.f_port', 0, 255) ?? 0,
      payload: payloadOf(up.frm_payload, 'uplink_message.frm_payload'),
      dedupId: null,
      time:
        up.received_at !== undefined
          ? timeOf(up.received_at, 'uplink_message.received_at')
          : timeOf(o.received_at, 'received_at'),
      deviceName: textOf(ids?.device_id, 'end_device_ids.device_id', 200),
      object: objectOf(up.decoded_payload),
      gateways: gatewaysOf(up.rx_metadata, 'uplink_message.rx_metadata', gateway),
    };
  }
  const devEui =
    ids?.dev_eui === undefined || ids.dev_eui === '' ? null : devEuiOf(ids.dev_eui, 'end_device_ids.dev_eui');
  return { kind, devEui, time: optionalTimeOf(o.received_at, 'received_at') };
}
