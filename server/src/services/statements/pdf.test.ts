import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DEVICE_TYPE, type FlatStatement, LOCATION_LEVEL } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings } from '../../test/factories.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { renderBuildingPdf } from './pdf.js';
import { loadStatements } from './snapshots.js';

const NOW = new Date('2026-11-20T10:00:00Z');
const MONTH = '2026-10';
const INSTALLED = '2025-01-01T00:00:00+02:00';
const t = useDb();
const dir = mkdtempSync(path.join(tmpdir(), 'statements-pdf-boxes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Box {
  page: number;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** Every word of a PDF with its box, as poppler's `pdftotext -bbox` finds them. */
function wordBoxes(pdf: Buffer, name: string): Box[] {
  const file = path.join(dir, name);
  writeFileSync(file, pdf);
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  const boxes: Box[] = [];
  for (const [i, page] of html.split('<page ').slice(1).entries())
    for (const m of page.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ))
      boxes.push({ page: i + 1, text: m[5]!, x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]! });
  return boxes;
}

/**
 * Pairs of words on the same page whose boxes overlap. A word's box spans its font's ascent and
 * descent, so the lines of a wrapped paragraph touch: less than 1 pt of height in common is not an overlap.
 */
function overlaps(boxes: readonly Box[]): string[] {
  const out: string[] = [];
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) {
      if (a.page !== b.page) continue;
      const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (w > 0.5 && h > 1) out.push(`page ${a.page}: "${a.text}" × "${b.text}"`);
    }
  return out;
}

const textOf = (boxes: readonly Box[]) => boxes.map((b) => b.text).join(' ');

describe(`the statements PDF: no overlapping text, one partial marker, numbers in the language (${dbKind()})`, () => {
  let statements: FlatStatement[];
  let building: number;
  beforeAll(async () => {
    const b = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Naujojo Sodo g.', number: '112A' });
    building = b.id;
    await t.db.query('INSERT INTO degree_days (city_id, month, value) VALUES ($1, $2, 302.4), ($1, $3, 350.5)', [
      b.path[LOCATION_LEVEL.city - 1],
      '2026-10-01',
      '2025-10-01',
    ]);
    const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter });
    await makeReadings(t.db, meter, [
      ['2025-09-30T23:00:00+03:00', 0],
      ['2025-10-31T22:00:00+02:00', 9_876.5],
      ['2026-09-30T23:00:00+03:00', 100_000],
      ['2026-10-31T22:00:00+02:00', 113_125.309],
    ]);
    for (const [i, units] of [120, 455, 1_230].entries()) {
      const flat = await makeFlat(t.db, b, { name: `${i + 1}`, order: i + 1 });
      await t.db.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [flat.id, 48.75 + i * 10]);
      const alloc = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.allocator,
        ratingFactor: 1.15,
        installedAt: INSTALLED,
      });
      await makeReadings(t.db, alloc, [
        ['2025-09-30T23:00:00+03:00', 0],
        ['2025-10-31T22:00:00+02:00', units * 2],
        ['2026-08-31T23:00:00+03:00', 5_000],
        // Nothing at the end of September: that month end is interpolated.
        ['2026-10-31T22:00:00+02:00', 5_000 + units * 2],
      ]);
      for (const [type, base] of [
        [DEVICE_TYPE.hotWaterMeter, 10],
        [DEVICE_TYPE.coldWaterMeter, 40],
      ] as const) {
        const water = await makeDevice(t.db, flat, { typeId: type, installedAt: INSTALLED });
        await makeReadings(t.db, water, [
          ['2025-09-30T23:00:00+03:00', base],
          ['2025-10-31T22:00:00+02:00', base + 3.5],
          ['2026-09-30T23:00:00+03:00', base + 100],
          ['2026-10-31T22:00:00+02:00', base + 104.125 + i],
        ]);
      }
    }
    // Flat 4 has its own heat meter: its energy is subtracted before the allocator flats share.
    const own = await makeFlat(t.db, b, { name: '4', order: 4 });
    const heatMeter = await makeDevice(t.db, own, { typeId: DEVICE_TYPE.heatMeter, installedAt: INSTALLED });
    await makeReadings(t.db, heatMeter, [
      ['2025-09-30T23:00:00+03:00', 0],
      ['2025-10-31T22:00:00+02:00', 250],
      ['2026-09-30T23:00:00+03:00', 4_000],
      ['2026-10-31T22:00:00+02:00', 4_269.175],
    ]);
    await refreshMonthEnds(t.db, NOW);
    statements = await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] });
  }, 120_000);

  for (const lang of ['lt', 'en'] as const)
    it(`draws every page of the building in ${lang} with no two words overlapping`, async () => {
      expect(statements).toHaveLength(4);
      const boxes = wordBoxes(await bytesOf(renderBuildingPdf(statements, lang)), `${lang}.pdf`);
      expect(new Set(boxes.map((b) => b.page)).size).toBe(4);
      expect(overlaps(boxes)).toEqual([]);
      const text = textOf(boxes.filter((b) => b.page === 1));
      // The corrected row and the long labels are there (the cases that overlapped).
      expect(text).toContain(lang === 'lt' ? 'Pernai, perskaičiuota pagal dienolaipsnius' : 'corrected by degree-days');
      expect(text).toContain(lang === 'lt' ? 'pernai, perskaič.' : 'last year, corr.');
    });

  it('draws a long building line (many flats with their own heat meter, one without a value) without overlaps', async () => {
    const b = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Naujojo Sodo g.', number: '114' });
    const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter });
    await makeReadings(t.db, meter, [
      ['2026-09-30T23:00:00+03:00', 100_000],
      ['2026-10-31T22:00:00+02:00', 113_125.309],
    ]);
    const alloc = await makeDevice(t.db, await makeFlat(t.db, b, { name: '1', order: 1 }), {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 1,
      installedAt: INSTALLED,
    });
    await makeReadings(t.db, alloc, [
      ['2026-09-30T23:00:00+03:00', 100],
      ['2026-10-31T22:00:00+02:00', 150],
    ]);
    for (let i = 2; i <= 13; i++) {
      const own = await makeDevice(t.db, await makeFlat(t.db, b, { name: `${i}A`, order: i }), {
        typeId: DEVICE_TYPE.heatMeter,
        installedAt: INSTALLED,
      });
      // Flat 13A's heat meter never reported: E is unknown, the line says which flat has no value.
      if (i < 13)
        await makeReadings(t.db, own, [
          ['2026-09-30T23:00:00+03:00', 1_000],
          ['2026-10-31T22:00:00+02:00', 1_000 + i * 111.111],
        ]);
    }
    await refreshMonthEnds(t.db, NOW);
    const long = await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] });
    for (const lang of ['lt', 'en'] as const) {
      const boxes = wordBoxes(await bytesOf(renderBuildingPdf(long, lang)), `${lang}-long.pdf`);
      expect(overlaps(boxes)).toEqual([]);
      const first = textOf(boxes.filter((x) => x.page === 1));
      expect(first).toContain(lang === 'lt' ? 'butas 13A: –' : 'flat 13A: –');
      expect(first).toContain(lang === 'lt' ? 'kWh neskaičiuojamos' : 'No kWh');
    }
  });

  it('prints numbers as the language writes them, everywhere on the page, and the building line', async () => {
    const lt = textOf(wordBoxes(await bytesOf(renderBuildingPdf(statements, 'lt')), 'lt-numbers.pdf'));
    const en = textOf(wordBoxes(await bytesOf(renderBuildingPdf(statements, 'en')), 'en-numbers.pdf'));
    // The degree-day note: 302,4 and 350,5 in Lithuanian, 302.4 and 350.5 in English.
    expect(lt).toMatch(/Dienolaipsniai: šį mėnesį 302,4, pernai 350,5/);
    expect(lt).not.toContain('302.4');
    expect(en).toMatch(/Degree-days: 302.4 this month, 350.5 a year before/);
    // The building line: 13,125.309 kWh measured, flat 4's 269.175 subtracted, E = 12,856.134 shared.
    expect(lt).toMatch(
      /Pastato šilumos skaitiklis 13\s?125,309 kWh − butai su savo šilumos skaitikliais 269,175 kWh \(butas 4: 269,175\) = E 12\s?856,134 kWh\./,
    );
    expect(en).toContain(
      'Building heat meter 13,125.309 kWh − flats with their own heat meter 269.175 kWh (flat 4: 269.175) = E 12,856.134 kWh.',
    );
    expect(en).toContain('(E = 12,856.134 kWh), shared among them by their Qrad.');
  });

  it('says on a flat’s page that the occupant declared readings of the month, and only on that flat’s', async () => {
    // Flat 2's cold-water month end of October as a declaration leaves it (docs/declared-readings.md).
    const declared = await t.db.query(
      `UPDATE month_end m SET source = 'declared', method = 'occupant' FROM device d, location f
        WHERE m.device_id = d.id AND d.location_id = f.id AND f.parent_id = $1 AND f.name = '2'
          AND d.device_type_id = $2 AND m.month = $3::date`,
      [building, DEVICE_TYPE.coldWaterMeter, `${MONTH}-01`],
    );
    expect(declared.rowCount).toBe(1);
    const again = await loadStatements(t.db, MONTH, { scope: null, parents: [building] });
    for (const lang of ['lt', 'en'] as const) {
      const boxes = wordBoxes(await bytesOf(renderBuildingPdf(again, lang)), `${lang}-declared.pdf`);
      const note = lang === 'lt' ? 'deklaruoti gyventojo' : 'were declared by the occupant';
      const pages = [1, 2, 3, 4].map((page) => textOf(boxes.filter((b) => b.page === page)));
      expect(pages.map((text) => text.includes(note))).toEqual([false, true, false, false]);
      expect(overlaps(boxes)).toEqual([]);
    }
  });

  it('marks a partial value with `*` only, and says what it stands for', async () => {
    for (const lang of ['lt', 'en'] as const) {
      const boxes = wordBoxes(await bytesOf(renderBuildingPdf(statements.slice(0, 1), lang)), `${lang}-marker.pdf`);
      const text = textOf(boxes);
      // September's allocator month end is interpolated: the previous month's heating is partial.
      expect(text).toMatch(lang === 'lt' ? /Praėjęs mėnuo [\d\s]+,\d{3} \*/ : /Previous month [\d,]+\.\d{3} \*/);
      expect(text).toContain(lang === 'lt' ? '* – interpoliuota tarp rodmenų' : '* – interpolated between readings');
      // No letter markers after a number.
      expect(text).not.toMatch(/\d \b[IĮREM]\b/);
    }
  });
});
