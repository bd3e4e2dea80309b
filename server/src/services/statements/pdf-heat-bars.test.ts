import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  FlatStatement,
  OccupancyStatement,
  StatementFigure,
  StatementHeatBalance,
  StatementHeatParts,
  StatementKindFigures,
} from '@rodmenys/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { renderBuildingPdf, renderOccupantPdf } from './pdf.js';

/*
 * The heat balance drawn on a flat's page of the statements PDF (docs/statements.md, "The heat balance
 * as a picture"): the figures of docs/heat-method.md's worked example (flat 2, raised to the minimum),
 * rendered by pdfkit, read back by poppler: the bars' legends as text (pdftotext) and the bars'
 * segments as pixels (pdftoppm), each as wide as its share.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'statements-pdf-heat-bars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The raster's resolution: 2 pixels a point. */
const DPI = 144;
const SCALE = DPI / 72;

const figure = (value: number): StatementFigure => ({
  Value: value,
  Partial: false,
  Incomplete: false,
  Sources: ['measured'],
});

const BALANCE: StatementHeatBalance = {
  Method: 'norm',
  ValidFrom: '2026-10',
  Status: 'split',
  Reason: null,
  InputKwh: 9870.5,
  HotWaterKwh: 938.4,
  CirculationKwh: 1251.682,
  CommonKwh: 384.021,
  NoDeviceKwh: 1185.335,
  HeatMeterKwh: 820,
  BaseKwh: 1587.319,
  ConsumptionKwh: 3703.743,
  HotWaterM3: 18.4,
  HotWaterLossesM3: 1.4,
  Parameters: {
    KwhPerM3: 51,
    CirculationNorm: 80,
    HotWaterTemperature: 60,
    DistrictHeat: true,
    Seasons: [{ From: '2026-10-15', To: null }],
    CommonShare: 0.05,
    BaseShare: 0.3,
    MinimumShare: 0.5,
    PositionFactor: 1,
    CirculationClass: null,
  },
};
const PARTS: StatementHeatParts = {
  Consumption: 106.516,
  Base: 450.996,
  Common: 67.238,
  NoDevice: 0,
  HeatMeter: 0,
  Assigned: 81.252,
  Space: 706.002,
  HotWater: 132.48,
  Circulation: 241.562,
  Total: 1080.044,
};

const kind = (
  k: Pick<StatementKindFigures, 'Kind' | 'Unit'> & Partial<StatementKindFigures>,
): StatementKindFigures => ({
  Devices: 1,
  Current: figure(10),
  Previous: figure(9),
  LastYear: figure(11),
  LastYearCorrected: null,
  BuildingAverage: 10,
  BuildingAveragePerM2: null,
  Units: null,
  Qrad: null,
  KwhMethod: null,
  BuildingKwh: null,
  BuildingLine: null,
  HeatBalance: null,
  HeatParts: null,
  Markers: [],
  Overdue: [],
  LateDeclarations: [],
  ...k,
});

const months = Array.from({ length: 13 }, (_, i) => {
  const d = new Date(Date.UTC(2025, 9 + i, 1));
  return d.toISOString().slice(0, 7);
});

/** Flat 2's page: heating split by the method, hot and cold water, 13 months of each. */
const STATEMENT: FlatStatement = {
  Month: '2026-10',
  Row: {
    FlatId: 7,
    BuildingId: 100,
    City: 'Panevėžys',
    Street: 'Respublikos g.',
    Building: '11',
    Flat: '2',
    FlatOrder: 2,
    AreaM2: 48.5,
    ClientCode: 'K-0002',
    Published: null,
    Kinds: [
      kind({
        Kind: 'heating',
        Unit: 'kWh',
        Current: figure(706.002),
        Previous: figure(0),
        LastYear: figure(640.5),
        BuildingAverage: 1412.1,
        Units: 35,
        Qrad: 35,
        KwhMethod: 'heatMethod',
        BuildingKwh: 9870.5,
        HeatBalance: BALANCE,
        HeatParts: PARTS,
      }),
      kind({ Kind: 'hotWater', Unit: 'm3', Current: figure(2.4), Previous: figure(2.1), LastYear: figure(2.6) }),
      kind({ Kind: 'coldWater', Unit: 'm3', Current: figure(3.9), Previous: figure(3.5), LastYear: figure(4.2) }),
    ],
  },
  History: (['heating', 'hotWater', 'coldWater'] as const).map((k, j) => ({
    Kind: k,
    Unit: k === 'heating' ? ('kWh' as const) : ('m3' as const),
    Months: months.map((m, i) => ({ Month: m, Value: (j + 1) * (10 + ((i * 7) % 13)), Partial: false })),
  })),
  DegreeDays: null,
};

/** An occupant who moved in on the 11th: their share of flat 2's parts (docs/heat-method.md, "Occupants"). */
const OCCUPANT: OccupancyStatement = {
  OccupancyId: 3,
  ClientCode: 'K-0002-B',
  Name: 'Ona Onaitė',
  From: '2026-10-11',
  Till: '2026-10-31',
  Days: 21,
  Kinds: [
    {
      Kind: 'heating',
      Unit: 'kWh',
      Current: figure(455.5),
      Previous: null,
      PreviousMissing: 'otherOccupancy',
      LastYear: null,
      LastYearMissing: 'otherOccupancy',
      BuildingAverage: 1412.1,
      Units: 20,
      Qrad: 20,
      Overdue: [],
      LateDeclarations: [],
      HeatParts: {
        Consumption: 60.866,
        Base: 305.514,
        Common: 45.548,
        NoDevice: 0,
        HeatMeter: 0,
        Assigned: 43.572,
        Space: 455.5,
        HotWater: 89.745,
        Circulation: 163.639,
        Total: 708.884,
      },
    },
  ],
};

async function pdfOf(lang: 'lt' | 'en', occupant = false): Promise<string> {
  const chunks: Buffer[] = [];
  const pdf = occupant ? renderOccupantPdf(STATEMENT, OCCUPANT, lang) : renderBuildingPdf([STATEMENT], lang);
  for await (const c of pdf) chunks.push(Buffer.from(c as Uint8Array));
  const file = path.join(dir, `heat-bars-${lang}${occupant ? '-occupant' : ''}.pdf`);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

/** The page's text as laid out (columns side by side on one line), spaces collapsed. */
const layoutText = (file: string) =>
  execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim());

interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
/** A word as pdftotext -bbox writes it in its XHTML: its character references and entities back to characters. */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeEntities = (w: string) =>
  w.replace(/&(?:#(\d+)|(\w+));/g, (all, code: string | undefined, name: string | undefined) =>
    code ? String.fromCharCode(Number(code)) : (NAMED[name!] ?? all),
  );
const wordsOf = (file: string): Word[] =>
  [
    ...execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ),
  ].map((m) => ({ text: decodeEntities(m[5]!), x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]! }));

/** The first page as RGB pixels (pdftoppm's PPM, P6). */
function raster(file: string) {
  const out = path.join(dir, path.basename(file, '.pdf'));
  execFileSync('pdftoppm', ['-r', String(DPI), '-f', '1', '-l', '1', '-singlefile', file, out]);
  const ppm = readFileSync(`${out}.ppm`);
  // Header: P6, width, height, max value, each after whitespace; then the pixels.
  const header = ppm.toString('latin1', 0, 40).match(/^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
  const width = +header[1]!;
  const start = header[0].length;
  const at = (x: number, y: number): [number, number, number] => {
    const i = start + (Math.round(y) * width + Math.round(x)) * 3;
    return [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!];
  };
  return { at, width, height: +header[2]! };
}

/** Each pattern's ground and lines, as the PDF draws them (pdf-split-bar.ts). */
const PATTERN_COLOURS: Record<number, [string, string]> = {
  1: ['#f8c9a0', '#8a3b00'],
  2: ['#f5e3a3', '#6b5200'],
  3: ['#cfe3c3', '#2f5d1e'],
  4: ['#ddd5f0', '#4b3a7a'],
  5: ['#bfe0e6', '#1f5661'],
  6: ['#e4e4e4', '#444444'],
  7: ['#f2a59c', '#f2a59c'],
  8: ['#dfe8f3', '#555555'],
};
const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** The pattern a pixel belongs to: the one whose ground-to-line blend it lies nearest, if near enough. */
function patternOf(p: readonly number[]): number | null {
  let best: number | null = null;
  let bestD = 30;
  for (const [n, [g, i]] of Object.entries(PATTERN_COLOURS)) {
    const a = rgb(g);
    const b = rgb(i);
    const ab = a.map((v, k) => b[k]! - v);
    const len = ab.reduce((s, v) => s + v * v, 0);
    const t = len ? Math.max(0, Math.min(1, ab.reduce((s, v, k) => s + v * (p[k]! - a[k]!), 0) / len)) : 0;
    const d = Math.hypot(...a.map((v, k) => v + t * ab[k]! - p[k]!));
    if (d < bestD) [best, bestD] = [Number(n), d];
  }
  return best;
}

/** A bar's title: the words on the line of the words `start` (its first ones); its box spans them. */
function titleLine(words: readonly Word[], start: string): Word {
  const [first, second] = start.split(' ');
  const w = words.find((x, i) => x.text === first && words[i + 1]?.text === second)!;
  const line = words.filter((x) => Math.abs(x.y0 - w.y0) < 1 && x.x0 >= w.x0 && x.x0 - w.x0 < 230);
  return {
    text: line.map((x) => x.text).join(' '),
    x0: w.x0,
    y0: w.y0,
    x1: Math.max(...line.map((x) => x.x1)),
    y1: w.y1,
  };
}

/**
 * The bar under `title`, from the title's left to x1 (points): each pattern's share of the bar's
 * width, read along a row of pixels just under the bar's top border.
 */
function barShares(file: string, title: Word, x1: number): Map<number, number> {
  const img = raster(file);
  // Down the bar's left edge from under the title: the first dark pixel is the bar's top border.
  const x = (title.x0 + 2) * SCALE;
  let y = title.y1 * SCALE;
  const dark = (p: number[]) => p.every((v) => v < 90);
  while (y < img.height && !dark(img.at(x, y))) y++;
  // (A title beside it may take a line more: the bars start level.)
  expect(y, `the bar under "${title.text}"`).toBeLessThan((title.y1 + 14) * SCALE);
  // Under the border, above the parts' numbers.
  const row = y + 1.2 * SCALE;
  const count = new Map<number, number>();
  let all = 0;
  for (let px = title.x0 * SCALE; px < x1 * SCALE; px++) {
    const n = patternOf(img.at(px, row));
    if (n === null) continue;
    count.set(n, (count.get(n) ?? 0) + 1);
    all++;
  }
  return new Map([...count].map(([n, c]) => [n, c / all]));
}

describe("a flat's statements PDF draws the heat balance: the building's bar and the flat's beside it", () => {
  it('in English: both bars, their legends with every part, value and share, each segment as wide as its share', async () => {
    const file = await pdfOf('en');
    const lines = layoutText(file);
    const text = lines.join(' ');
    // What the bars are: the method above them, each bar's title its whole.
    expect(text).toContain("Heat split by the building's method (norm from 2026-10). Each bar is a whole of its own");
    expect(text).toContain(
      "The building's input: 9,870.500 kWh, the whole bar Your flat: 1,080.044 kWh, the whole bar",
    );
    expect(text).toMatch(/Your flat: 1,080\.044 kWh, the whole bar \(10\.9 % of the input\)/);
    // The legends: the building's seven parts and the flat's own (none of those it has 0 of): number, name, value, share.
    const building = [
      '1 hot water 938.400 9.5 %',
      '2 circulation 1,251.682 12.7 %',
      '3 common areas 384.021 3.9 %',
      '4 flats without a device 1,185.335 12 %',
      '5 flat heat meters 820.000 8.3 %',
      '6 base part 1,587.319 16.1 %',
      '7 by consumption 3,703.743 37.5 %',
    ];
    const flat = [
      '1 hot-water heat 132.480 12.3 %',
      '2 circulation 241.562 22.4 %',
      '3 common areas 67.238 6.2 %',
      '6 base 450.996 41.8 %',
      '7 by consumption 106.516 9.9 %',
      '8 assigned (minimum) 81.252 7.5 %',
    ];
    // Row by row, the building's legend on the left and the flat's on the right.
    building.forEach((b, i) => {
      expect(lines, b).toContainEqual(flat[i] ? `${b} ${flat[i]}` : b);
    });
    // The balance and the flat's parts are no longer paragraphs of numbers.
    expect(text).not.toContain('input 9,870.500 kWh =');
    expect(text).not.toContain('Your flat: heating');
    // The parameters and the losses stay notes.
    expect(text).toContain('Parameters of the version from 2026-10: q 51 kWh/m³');
    expect(text).toContain('Hot water: 18.400 m³ in the building, losses 1.400 m³.');
    // The page still has room for every kind's 13 months.
    for (const kind of ['Heating (kWh)', 'Hot water (m³)', 'Cold water (m³)'])
      expect(text.split(kind).length - 1, kind).toBe(2);

    // The drawing: each bar's segments in their patterns, as wide as their shares (within a point or so).
    const words = wordsOf(file);
    const buildingTitle = titleLine(words, "The building's");
    const flatTitle = titleLine(words, 'Your flat:');
    expect(flatTitle.x0).toBeGreaterThan(buildingTitle.x0 + 200);
    const buildingShares = barShares(file, buildingTitle, flatTitle.x0 - 10);
    expect([...buildingShares.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    [938.4, 1251.682, 384.021, 1185.335, 820, 1587.319, 3703.743].forEach((v, i) => {
      expect(Math.abs(buildingShares.get(i + 1)! - v / 9870.5), `the building's part ${i + 1}`).toBeLessThan(0.012);
    });
    const flatShares = barShares(file, flatTitle, 545);
    expect([...flatShares.keys()].sort()).toEqual([1, 2, 3, 6, 7, 8]);
    for (const [n, v] of [
      [1, 132.48],
      [2, 241.562],
      [3, 67.238],
      [6, 450.996],
      [7, 106.516],
      [8, 81.252],
    ] as const)
      expect(Math.abs(flatShares.get(n)! - v / 1080.044), `the flat's part ${n}`).toBeLessThan(0.012);
  });

  it('in Lithuanian: the titles, names and numbers in Lithuanian', async () => {
    const file = await pdfOf('lt');
    const lines = layoutText(file);
    const text = lines.join(' ');
    expect(text).toContain(
      'Šiluma padalyta pagal pastato metodą (norma nuo 2026-10). Kiekviena juosta – atskira visuma',
    );
    expect(text).toMatch(
      /Pastato įvadas: 9\s870,500 kWh – visa juosta Jūsų butas: 1\s080,044 kWh – visa juosta \(10,9 % įvado\)/,
    );
    expect(lines).toContainEqual('1 karštas vanduo 938,400 9,5 % 1 karšto vandens šiluma 132,480 12,3 %');
    expect(text).toMatch(/7 pagal suvartojimą 3\s703,743 37,5 %/);
    expect(text).toContain('8 priskirta (minimumas) 81,252 7,5 %');
    expect(text).not.toContain('Jūsų butas: šildymas');
  });

  it("an occupant's page draws the occupant's own parts as one bar", async () => {
    const file = await pdfOf('en', true);
    const text = layoutText(file).join(' ');
    expect(text).toContain("Your part by the building's method: 708.884 kWh of heat in all, the whole bar");
    for (const part of [
      '1 hot-water heat 89.745 12.7 %',
      '2 circulation 163.639 23.1 %',
      '3 common areas 45.548 6.4 %',
      '6 base 305.514 43.1 %',
      '7 by consumption 60.866 8.6 %',
      '8 assigned (minimum) 43.572 6.1 %',
    ])
      expect(text).toContain(part);
    expect(text).not.toContain('Your part: heating');
    const lt = layoutText(await pdfOf('lt', true)).join(' ');
    expect(lt).toMatch(/Jūsų dalis pagal pastato metodą: iš viso 708,884 kWh šilumos – visa juosta/);
    expect(lt).toContain('1 karšto vandens šiluma 89,745 12,7 %');
  });
});
