/**
 * wmbusmeters telegrams as a collector posts them to POST /api/ingest/wmbusmeters (JSON lines):
 * realistic objects of three drivers, one device of `devices` per telegram in turn, each telegram of
 * a device a minute after its previous one (so every telegram is a new reading).
 */

/** Device d: an allocator, a heat meter or a water meter (device type d % 3 + 1), with the JSON its driver prints. */
export const TELEGRAM_KINDS = [
  {
    type: 1,
    json: (id: string, n: number) => ({
      _: 'telegram',
      media: 'heat cost allocation',
      meter: 'qcaloric',
      name: 'hca',
      id,
      status: 'OK',
      current_consumption_hca: n % 5000,
      set_date: '2025-12-31',
      consumption_at_set_date_hca: 1234,
      error_date: '',
      device_datetime: '2026-01-20 11:32',
    }),
  },
  {
    type: 2,
    json: (id: string, n: number) => ({
      _: 'telegram',
      media: 'heat',
      meter: 'kamheat',
      name: 'hm',
      id,
      status: 'OK',
      total_energy_consumption_kwh: n / 9,
      total_volume_m3: n / 1000,
      target_date: '2026-01-01',
      target_energy_kwh: 4.7,
      meter_date: '2026-01-20',
    }),
  },
  {
    type: 3,
    json: (id: string, n: number) => ({
      _: 'telegram',
      media: 'water',
      meter: 'iperl',
      name: 'cw',
      id,
      total_m3: n / 1000,
      max_flow_m3h: 0,
    }),
  },
] as const;

/**
 * Telegrams `from`…`from + count - 1` of devices `${prefix}0`…, as one collector batch. Telegram n is
 * device n % devices's telegram number n / devices (its round); `value` gives the number its driver's
 * values are made of (default n, as bench:ingest has always sent).
 */
export function telegramLines(
  from: number,
  count: number,
  devices: number,
  prefix = 'M',
  value: (n: number, device: number, round: number) => number = (n) => n,
): string {
  const lines: string[] = [];
  for (let n = from; n < from + count; n++) {
    const d = n % devices;
    const round = Math.floor(n / devices);
    const ts = new Date(Date.UTC(2026, 0, 1) + round * 60_000 + d).toISOString();
    lines.push(JSON.stringify({ ...TELEGRAM_KINDS[d % 3]!.json(`${prefix}${d}`, value(n, d, round)), timestamp: ts }));
  }
  return lines.join('\n');
}
