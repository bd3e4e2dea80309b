import { type CollectorConfig, isWmbusMeterId } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { recordAudit } from '../audit/record-audit.js';
import { driverFor } from './drivers.js';
import { openMeterKey } from './key-crypto.js';
import { SEALED_HEX, sealedFromHex } from './meter-keys.js';
import { commentLine, configFile, configLine } from './wmbusmeters-format.js';

/** A collector's meters: devices in service under the locations assigned to it (docs/collectors.md). */
export const EXPECTED_DEVICES = `SELECT DISTINCT ON (d.id) d.id, d.device_code, d.device_type_id, d.model, l.path
    FROM collector_location cl JOIN location l ON l.path && ARRAY[cl.location_id]
    JOIN device d ON d.location_id = l.id
   WHERE cl.collector_id = $1 AND coalesce(d.removed_at, 'infinity') > now()`;

/** A meter's name in wmbusmeters (also its file name), from a serial that is a wM-Bus meter id. */
const meterName = (code: string) => `m_${code}`;

/** Single-quoted for sh: the key and the address never break out of the command line. */
const shQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The wmbusmeters configuration of a collector: `wmbusmeters.conf` with the product's
 * `shell=` hook (each telegram posted to the ingest) and `alarmshell=` hook (its alarms
 * posted to the collector events), and one meter file per meter of its buildings (name,
 * driver, id, key; no key line for a meter without a key). `key` is the collector's own
 * key (the request's), `baseUrl` the product's address. Every download is audited, with
 * the meters whose keys it carried.
 */
export async function collectorConfig(
  db: Db,
  kek: Buffer | undefined,
  collector: { id: number; name: string },
  key: string,
  baseUrl: string,
): Promise<CollectorConfig> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: number;
      device_code: string;
      device_type_id: number;
      model: string | null;
      nonce: string | null;
      sealed: string | null;
      tag: string | null;
    }>(
      `WITH e AS (${EXPECTED_DEVICES})
       SELECT e.id, e.device_code, e.device_type_id, e.model, ${SEALED_HEX}
         FROM e LEFT JOIN meter_key k ON k.device_id = e.id ORDER BY e.device_code`,
      [collector.id],
    );
    const header = shQuote(`X-Collector-Key: ${key}`);
    const conf = configFile([
      commentLine(`wmbusmeters configuration of collector "${collector.name}", written by Rodmenys.`),
      commentLine('Set device= to the dongle of this collector (e.g. /dev/ttyUSB0:im871a:c1,t1): auto probes slowly.'),
      configLine('loglevel', 'normal'),
      configLine('device', 'auto:c1,t1'),
      configLine('format', 'json'),
      configLine('logtelegrams', 'false'),
      configLine('ignoreduplicates', 'true'),
      configLine(
        'shell',
        `curl -sS --fail --retry 5 --retry-all-errors -H 'Content-Type: application/json' -H ${header} --data-binary "$METER_JSON" ${shQuote(`${baseUrl}/api/ingest/wmbusmeters`)}`,
      ),
      configLine(
        'alarmshell',
        `curl -sS --fail -X POST -G -H ${header} --data-urlencode "type=$ALARM_TYPE" --data-urlencode "message=$ALARM_MESSAGE" ${shQuote(`${baseUrl}/api/collectors/alarms`)}`,
      ),
      configLine('alarmtimeout', '1h'),
      configLine('alarmexpectedactivity', 'mon-sun(00-23)'),
    ]);
    const withKeys: string[] = [];
    const leftOut: number[] = [];
    const files: CollectorConfig['Files'] = [];
    for (const r of rows) {
      // A serial that is no wM-Bus id can never match a telegram, and might break the file: left out,
      // and shown in the collector's health (LeftOut), whatever an old row holds.
      if (!isWmbusMeterId(r.device_code)) {
        leftOut.push(r.id);
        continue;
      }
      const name = meterName(r.device_code);
      const lines = [configLine('name', name), configLine('id', r.device_code)];
      if (r.sealed) {
        const meterKey = openMeterKey(kek, r.id, sealedFromHex({ nonce: r.nonce!, sealed: r.sealed, tag: r.tag! }));
        lines.push(configLine('key', meterKey.toString('hex').toUpperCase()));
        withKeys.push(r.device_code);
      }
      lines.push(configLine('driver', driverFor(r.model)));
      files.push({ Path: `wmbusmeters.d/${name}`, Content: configFile(lines) });
    }
    await recordAudit(tx, {
      actor: null,
      kind: 'meterKey.read',
      entity: 'collectorKey',
      entityId: collector.id,
      before: null,
      after: { Collector: collector.name, Meters: files.length, KeysOf: withKeys, LeftOutDevices: leftOut },
    });
    return { Files: [{ Path: 'wmbusmeters.conf', Content: conf }, ...files] };
  });
}
