import type { StatementFigure, StatementKindFigures } from '@rodmenys/contract';

/* The statements PDF's texts in Lithuanian and English, its number format and its file names. */

export type Lang = 'lt' | 'en';

/** The page's texts per language. */
export const T = {
  lt: {
    title: 'Mėnesio suvartojimo ataskaita',
    flat: 'Butas',
    area: 'Plotas',
    client: 'Kliento kodas',
    kinds: { heating: 'Šildymas', hotWater: 'Karštas vanduo', coldWater: 'Šaltas vanduo' },
    units: { kWh: 'kWh', Qrad: 'Qrad', m3: 'm³' },
    current: 'Šis mėnuo',
    previous: 'Praėjęs mėnuo',
    lastYear: 'Tas pats mėnuo pernai',
    corrected: 'Pernai, perskaičiuota pagal dienolaipsnius',
    average: 'Pastato vidurkis (butui)',
    averageM2: 'Pastato vidurkis (m²)',
    unitsRow: 'Daliklių vienetai',
    qradRow: 'Qrad (vienetai × koeficientas)',
    methods: {
      buildingMeterByQrad: (e: string) =>
        `kWh: pastato šilumos skaitiklio energija, likusi butams su dalikliais (E = ${e} kWh), padalyta jiems pagal jų Qrad.`,
      noBuildingMeter: () => 'Pastate nėra šilumos skaitiklio: šildymas pateikiamas Qrad, kWh neskaičiuojamos.',
      incompleteBuilding: () => 'kWh neskaičiuojamos: trūksta pastato prietaisų mėnesio pabaigos reikšmių.',
      noAllocatorConsumption: (e: string) =>
        `0 kWh: pastato dalikliai šį mėnesį nieko nesuskaičiavo (ΣQrad = 0); E = ${e} kWh nepadalyta.`,
      heatMethod: () => 'kWh: pastato šiluma padalyta pagal pastato šilumos paskirstymo metodą (balansas žemiau).',
      heatMethodUnbalanced: () =>
        'kWh neskaičiuojamos: pagal pastato metodą šio mėnesio balansas nesueina (dalis būtų neigiama).',
    },
    /** The heat method's hot-water mode as the balance line names it. */
    methodNames: { norm: 'norma', meter: 'karšto vandens skaitiklis', formulaDE: 'įvertis pagal HeizkostenV' },
    losses: (v: string, l: string) => `Karštas vanduo: pastate ${v} m³, nuostoliai ${l} m³.`,
    buildingLine: (meter: string, subtracted: string, flats: string, e: string) =>
      `Pastato šilumos skaitiklis ${meter} kWh − butai su savo šilumos skaitikliais ${subtracted} kWh (${flats}) = E ${e} kWh.`,
    buildingLineNoFlats: (meter: string) =>
      `Pastato šilumos skaitiklis ${meter} kWh; butų su savo šilumos skaitikliais nėra, tad E = ${meter} kWh.`,
    subtractedFlat: (flat: string, kwh: string) => `butas ${flat}: ${kwh}`,
    degreeDays: (c: string, l: string) =>
      `Dienolaipsniai: šį mėnesį ${c}, pernai ${l}; perskaičiuota reikšmė = pernai × ${c} / ${l}.`,
    overdue: (devices: string) =>
      `Duomenis teikė prietaisai, kurių patikros ar baterijos terminas pasibaigęs: ${devices}.`,
    late: (months: string) =>
      `Skaičiai su pavėluotai deklaruotais rodmenimis (to mėnesio įvertis paliktas, skirtumas įskaitytas šį mėnesį): ${months}.`,
    overdueDevice: (code: string, due: string, reason: 'verification' | 'battery') =>
      `nr. ${code} (${reason === 'battery' ? 'baterija' : 'patikra'} iki ${due})`,
    partial: '* reikšmė interpoliuota, įvertinta arba įvesta rankiniu būdu',
    declared: 'Šio mėnesio rodmenys (dalis ar visi) deklaruoti gyventojo.',
    sourceNotes: {
      interpolated: 'interpoliuota tarp rodmenų',
      estimated: 'įvertinta (rodmenų nėra)',
      manual: 'įvesta rankiniu būdu',
    },
    missing: '–',
    chartYear: 'Šis mėnuo, tas pats mėnuo pernai ir pastato vidurkis',
    barLastYear: 'pernai',
    barLastYearCorrected: 'pernai, perskaič.',
    barCurrent: 'šis mėn.',
    barAverage: 'vidurkis',
    legendLastYear: 'tas pats mėnuo pernai',
    legendCurrent: 'šis mėnuo',
    legendPartial: 'su interpoliuotomis, įvertintomis ar rankinėmis reikšmėmis',
    legendOther: 'kiti mėnesiai',
    footer: (page: number, pages: number, at: string) => `Rodmenys · sudaryta ${at} · ${page} / ${pages}`,
    chartHistory: 'Paskutiniai 13 mėnesių',
    published: (v: number, at: string) => `Paskelbta (versija ${v}) ${at.slice(0, 10)}`,
    preliminary: 'Preliminari: mėnuo dar nepaskelbtas',
    none: 'Šiame bute nėra prietaisų.',
  },
  en: {
    title: 'Monthly consumption statement',
    flat: 'Flat',
    area: 'Area',
    client: 'Client code',
    kinds: { heating: 'Heating', hotWater: 'Hot water', coldWater: 'Cold water' },
    units: { kWh: 'kWh', Qrad: 'Qrad', m3: 'm³' },
    current: 'This month',
    previous: 'Previous month',
    lastYear: 'Same month last year',
    corrected: 'Last year, corrected by degree-days',
    average: 'Building average (per flat)',
    averageM2: 'Building average (per m²)',
    unitsRow: 'Allocator units',
    qradRow: 'Qrad (units × rating factor)',
    methods: {
      buildingMeterByQrad: (e: string) =>
        `kWh: the building heat meter's energy left to the allocator flats (E = ${e} kWh), shared among them by their Qrad.`,
      noBuildingMeter: () => 'The building has no heat meter: heating is given in Qrad, no kWh are computed.',
      incompleteBuilding: () => 'No kWh: month-end values of devices in the building are missing.',
      noAllocatorConsumption: (e: string) =>
        `0 kWh: the building's allocators counted nothing this month (ΣQrad = 0); E = ${e} kWh was not shared.`,
      heatMethod: () => "kWh: the building's heat split by its heat method (the balance below).",
      heatMethodUnbalanced: () =>
        "No kWh: by the building's method this month does not balance (a part would be negative).",
    },
    methodNames: { norm: 'norm', meter: 'hot-water meter', formulaDE: 'HeizkostenV estimate' },
    losses: (v: string, l: string) => `Hot water: ${v} m³ in the building, losses ${l} m³.`,
    buildingLine: (meter: string, subtracted: string, flats: string, e: string) =>
      `Building heat meter ${meter} kWh − flats with their own heat meter ${subtracted} kWh (${flats}) = E ${e} kWh.`,
    buildingLineNoFlats: (meter: string) =>
      `Building heat meter ${meter} kWh; no flat has its own heat meter, so E = ${meter} kWh.`,
    subtractedFlat: (flat: string, kwh: string) => `flat ${flat}: ${kwh}`,
    degreeDays: (c: string, l: string) =>
      `Degree-days: ${c} this month, ${l} a year before; corrected value = last year × ${c} / ${l}.`,
    overdue: (devices: string) => `Figures fed by devices past their verification or battery due date: ${devices}.`,
    late: (months: string) =>
      `Figures carrying a late declaration (its month's estimate was kept; the difference counts in this month): ${months}.`,
    overdueDevice: (code: string, due: string, reason: 'verification' | 'battery') =>
      `no. ${code} (${reason === 'battery' ? 'battery' : 'verification'} due ${due})`,
    partial: '* value interpolated, estimated or set by hand',
    declared: 'Readings of this month (some or all) were declared by the occupant.',
    sourceNotes: {
      interpolated: 'interpolated between readings',
      estimated: 'estimated (no readings)',
      manual: 'set by hand',
    },
    missing: '–',
    chartYear: 'This month, the same month last year and the building average',
    barLastYear: 'last year',
    barLastYearCorrected: 'last year, corr.',
    barCurrent: 'this month',
    barAverage: 'average',
    legendLastYear: 'same month last year',
    legendCurrent: 'this month',
    legendPartial: 'with interpolated, estimated or manual values',
    legendOther: 'other months',
    footer: (page: number, pages: number, at: string) => `Rodmenys · made ${at} · ${page} / ${pages}`,
    chartHistory: 'The last 13 months',
    published: (v: number, at: string) => `Published (version ${v}) ${at.slice(0, 10)}`,
    preliminary: 'Preliminary: the month is not published yet',
    none: 'This flat has no devices.',
  },
};

/** A number in the language's format with `digits` decimals; no number: the missing sign. */
export const fmt = (v: number | null | undefined, lang: Lang, digits = 3) =>
  v === null || v === undefined
    ? T[lang].missing
    : v.toLocaleString(lang === 'lt' ? 'lt-LT' : 'en-GB', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
/** The sources that make a figure partial, in the order the note names them. */
export const MARKED = ['interpolated', 'estimated', 'manual'] as const;

/** A number in the language's format with as many decimals as it has (up to 3): 302,4 in lt. */
export const fmtPlain = (v: number, lang: Lang) =>
  v.toLocaleString(lang === 'lt' ? 'lt-LT' : 'en-GB', { maximumFractionDigits: 3 });

/** A figure; a partial one (some value behind it interpolated, estimated or set by hand) marked `*`. */
export const fig = (f: StatementFigure, lang: Lang) =>
  f.Value !== null && f.Partial ? `${fmt(f.Value, lang)} *` : fmt(f.Value, lang);

/** The note on the devices past their due date behind the figures (docs/device-lifetime.md), per kind. */
export function overdueNotes(kinds: readonly Pick<StatementKindFigures, 'Kind' | 'Overdue'>[], lang: Lang): string[] {
  const t = T[lang];
  const named = kinds
    .filter((k) => k.Overdue.length)
    .map(
      (k) =>
        `${t.kinds[k.Kind]} – ${k.Overdue.map((d) => t.overdueDevice(d.DeviceCode, d.DueDate, d.Reason)).join(', ')}`,
    );
  return named.length ? [t.overdue(named.join('; '))] : [];
}

/** The note on the late declarations the figures carry (docs/declared-readings.md), per kind. */
export function lateNotes(
  kinds: readonly Pick<StatementKindFigures, 'Kind' | 'LateDeclarations'>[],
  lang: Lang,
): string[] {
  const t = T[lang];
  const named = kinds
    .filter((k) => k.LateDeclarations.length)
    .map((k) => `${t.kinds[k.Kind]} – ${k.LateDeclarations.join(', ')}`);
  return named.length ? [t.late(named.join('; '))] : [];
}

/** A building's PDF file name: the month and its address in ASCII. */
export const fileName = (name: string, month: string) =>
  `${month}-${
    name
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'building'
  }.pdf`;
