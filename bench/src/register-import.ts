/**
 * `npm run bench:register -w bench`: register import (docs/master-data.md) of a provider's
 * whole register, by default 50,000 devices, on embedded PGlite (the default
 * database, single-threaded) and on a throwaway PostgreSQL server. Per database:
 * preview then apply of the first import into an empty database (everything
 * created), then preview and apply of the same file again (everything unchanged).
 * Target: preview + apply under one minute on a 2-core machine.
 *
 * BENCH_REGISTER_DEVICES overrides the size; BENCH_REGISTER_FORMAT=csv|xlsx (default both).
 */
import { cpus, loadavg } from 'node:os';
import { type ImportReport, REGISTER_COLUMNS, type RegisterColumn } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { importRegister } from '@rodmenys/server/services/master-data/register-import/index.js';
import ExcelJS from 'exceljs';
import { startPostgres } from './lib/postgres.js';
import { envInt, fmtMs, timed } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const DEVICES = envInt('BENCH_REGISTER_DEVICES', 50_000);
const FORMATS = (process.env.BENCH_REGISTER_FORMAT ?? 'csv,xlsx').split(',') as ('csv' | 'xlsx')[];
const TIME_ZONE = 'Europe/Vilnius';
const log = (message: string) => console.error(`[bench] ${message}`);

/** A register shaped like a provider's: 4 allocators and 2 water meters per flat, 60 flats per building, a heat meter per building. */
/** The occupancy columns left empty: each flat gets one open occupancy of its client. */
const NO_OCCUPANT = {
  OccupantName: '',
  OccupantEmail: '',
  OccupantPhone: '',
  OccupantLanguage: '',
  MoveIn: '',
  MoveOut: '',
  ConsentDate: '',
  ConsentChannel: '',
};
/**
 * The devices' lifetime columns (docs/device-lifetime.md), role, the heat-method ones (docs/master-data.md)
 * and the LoRaWAN DevEUI (docs/lorawan.md), left empty.
 */
const NO_LIFETIME = {
  DevEui: '',
  VerifiedOn: '',
  ReadMethod: '',
  DeviceRole: '',
  HeatMethodFrom: '',
  HeatMethod: '',
  HeatKwhPerM3: '',
  HeatCirculationNorm: '',
  HeatingSeason: '',
  HeatCommonShare: '',
  HeatBaseShare: '',
  HeatMinimumShare: '',
  PositionFactor: '',
  CirculationClass: '',
};

function registerRows(devices: number): Record<RegisterColumn, string>[] {
  const rows: Record<RegisterColumn, string>[] = [];
  const streets = ['Gedimino pr.', 'Žalgirio g.', 'Savanorių pr.', 'Kęstučio g.', 'Vytauto g.'];
  for (let b = 0; rows.length < devices; b++) {
    const city = ['Vilnius', 'Kaunas', 'Klaipėda', 'Šiauliai'][b % 4]!;
    const place = {
      Country: 'Lietuva',
      County: `${city} apskritis`,
      Region: `${city} m. sav.`,
      City: city,
      Street: streets[Math.floor(b / 4) % streets.length]!,
      Building: String(1 + Math.floor(b / 20)) + (b % 5 === 0 ? 'A' : ''),
      ObjectCode: `OBJ-${b}`,
      ObjectName: `Namas ${b}`,
      ObjectTypeCode: 'DN',
      ObjectTypeName: 'Daugiabutis namas',
      ObjectCategoryCode: 'GYV',
      ObjectCategoryName: 'Gyvenamasis',
      ...NO_LIFETIME,
    };
    const empty = {
      ...NO_OCCUPANT,
      ClientCode: '',
      ClientName: '',
      ClientTypeCode: '',
      ClientTypeName: '',
      ClientCategoryCode: '',
      ClientCategoryName: '',
    };
    rows.push({
      ...place,
      ...empty,
      Flat: '',
      FlatOrder: '',
      FlatArea: '',
      DeviceType: 'BHM',
      DeviceCode: `BHM-${b}`,
      CounterCode: `C-BHM-${b}`,
      DeviceDescription: 'Įvadas',
      Model: 'Multical 603',
      DevEui: '',
      RatingFactor: '',
      InstalledAt: '2024-09-01',
    });
    for (let f = 1; f <= 60 && rows.length < devices; f++) {
      const flat = {
        ...place,
        ...NO_OCCUPANT,
        Flat: String(f),
        FlatOrder: String(f),
        FlatArea: String(40 + (f % 7) * 9.5).replace('.', ','),
        ClientCode: `CL-${b}-${f}`,
        ClientName: `Gyventojas ${b}-${f}`,
        ClientTypeCode: 'FA',
        ClientTypeName: 'Fizinis asmuo',
        ClientCategoryCode: 'SAV',
        ClientCategoryName: 'Savininkas',
      };
      for (let d = 1; d <= 6 && rows.length < devices; d++) {
        const code = `${b}-${f}-${d}`;
        rows.push({
          ...flat,
          DeviceType: d <= 4 ? 'HCA' : d === 5 ? 'CWM' : 'HWM',
          DeviceCode: `D-${code}`,
          CounterCode: `C-${code}`,
          DeviceDescription: d <= 4 ? `Kambarys ${d}` : 'Vonia',
          Model: d <= 4 ? 'Q caloric 5.5' : 'Minomess',
          DevEui: '',
          RatingFactor: d <= 4 ? `${(0.5 + ((b + f + d) % 20) / 10).toFixed(2).replace('.', ',')}` : '',
          InstalledAt: '2024-09-01',
        });
      }
    }
  }
  return rows;
}

function toCsv(rows: Record<RegisterColumn, string>[]): Buffer {
  const lines = [REGISTER_COLUMNS.map((c) => c.lt).join(';')];
  for (const r of rows) lines.push(REGISTER_COLUMNS.map((c) => r[c.key]).join(';'));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);
}

async function toXlsx(rows: Record<RegisterColumn, string>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Registras');
  ws.addRow(REGISTER_COLUMNS.map((c) => c.lt));
  for (const r of rows) ws.addRow(REGISTER_COLUMNS.map((c) => r[c.key]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const summary = (r: ImportReport) =>
  `${r.Devices.Created} created, ${r.Devices.Changed} changed, ${r.Devices.Unchanged} unchanged devices` +
  (r.ErrorCount ? `, ${r.ErrorCount} ERRORS (first: ${r.Errors[0]?.Message})` : '');

async function run(label: string, open: () => Promise<Db>, file: Buffer, format: string, table: string[][]) {
  const db = await open();
  try {
    for (const pass of ['first import', 'same file again']) {
      const preview = await timed(() => importRegister(db, null, file, { apply: false }));
      const apply = await timed(() => importRegister(db, null, file, { apply: true }));
      if (!apply.result.Applied) throw new Error(`not applied: ${summary(apply.result)}`);
      log(`${label} ${format} ${pass}: ${summary(apply.result)}`);
      table.push([
        label,
        format,
        pass,
        fmtMs(preview.ms),
        fmtMs(apply.ms),
        fmtMs(preview.ms + apply.ms),
        preview.ms + apply.ms < 60_000 ? 'yes' : 'NO',
      ]);
    }
  } finally {
    await db.close();
  }
}

async function main() {
  log(`generating a register of ${DEVICES.toLocaleString('en-US')} devices`);
  const rows = registerRows(DEVICES);
  const files: Record<string, Buffer> = {};
  for (const f of FORMATS) files[f] = f === 'csv' ? toCsv(rows) : await toXlsx(rows);
  const table: string[][] = [];
  for (const format of FORMATS) {
    log(`PGlite, ${format} (${(files[format]!.length / 1e6).toFixed(1)} MB)`);
    await run(
      'PGlite',
      async () => {
        const db = await openPglite(undefined, TIME_ZONE);
        await migrate(db);
        return db;
      },
      files[format]!,
      format,
      table,
    );
  }
  const cluster = await startPostgres().catch((err: Error) => {
    log(`PostgreSQL skipped: ${err.message}`);
    return undefined;
  });
  if (cluster) {
    try {
      for (const format of FORMATS) {
        log(`PostgreSQL, ${format}`);
        await run(
          'PostgreSQL',
          async () => {
            const admin = openPostgres(cluster.url, TIME_ZONE);
            const name = `register_${format}`;
            await admin.query(`DROP DATABASE IF EXISTS ${name}`);
            await admin.query(`CREATE DATABASE ${name}`);
            await admin.close();
            const url = new URL(cluster.url);
            url.pathname = `/${name}`;
            const db = openPostgres(url.toString(), TIME_ZONE);
            await migrate(db);
            return db;
          },
          files[format]!,
          format,
          table,
        );
      }
    } finally {
      await cluster.stop();
    }
  }
  console.log(`\nRegister import, ${DEVICES.toLocaleString('en-US')} devices (${rows.length} rows)`);
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(formatTable(['database', 'file', 'pass', 'preview ms', 'apply ms', 'total ms', '< 1 min'], table));
}

await main();
