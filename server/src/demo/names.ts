// Real-looking Lithuanian names for the demo data: geography, people, companies.
import { DEVICE_TYPE } from '@rodmenys/contract';

export interface DemoCity {
  county: string;
  municipality: string;
  city: string;
  /** How often a building lands in this city (roughly the population). */
  weight: number;
  streets: readonly string[];
}

export const COUNTRY = 'Lietuva';

/** The first city gets the demo manager's building and a few more around it. */
export const CITIES: readonly DemoCity[] = [
  {
    county: 'Vilniaus apskritis',
    municipality: 'Vilniaus m. sav.',
    city: 'Vilnius',
    weight: 8,
    streets: [
      'Gedimino pr.',
      'Žalgirio g.',
      'Šv. Stepono g.',
      'Antakalnio g.',
      'Kalvarijų g.',
      'Žirmūnų g.',
      'Savanorių pr.',
      'Konstitucijos pr.',
      'Ukmergės g.',
      'Pylimo g.',
      'Šeškinės g.',
      'Justiniškių g.',
      'Architektų g.',
      'Didlaukio g.',
      'Fabijoniškių g.',
      'Laisvės pr.',
      'Viršuliškių g.',
      'Taikos g.',
      'Ąžuolyno g.',
      'Lazdynų g.',
    ],
  },
  {
    county: 'Vilniaus apskritis',
    municipality: 'Vilniaus r. sav.',
    city: 'Nemenčinė',
    weight: 1,
    streets: ['Švenčionių g.', 'Vilniaus g.', 'Sodų g.'],
  },
  {
    county: 'Vilniaus apskritis',
    municipality: 'Trakų r. sav.',
    city: 'Lentvaris',
    weight: 1,
    streets: ['Klevų al.', 'Bažnyčios g.', 'Geležinkelio g.'],
  },
  {
    county: 'Kauno apskritis',
    municipality: 'Kauno m. sav.',
    city: 'Kaunas',
    weight: 5,
    streets: [
      'Laisvės al.',
      'Savanorių pr.',
      'Vytauto pr.',
      'Kęstučio g.',
      'Pramonės pr.',
      'Baltų pr.',
      'Šiaurės pr.',
      'Taikos pr.',
      'Partizanų g.',
      'Eivenių g.',
      'Žemaičių pl.',
      'Kovo 11-osios g.',
    ],
  },
  {
    county: 'Kauno apskritis',
    municipality: 'Kėdainių r. sav.',
    city: 'Kėdainiai',
    weight: 1,
    streets: ['Didžioji g.', 'J. Basanavičiaus g.', 'Budrio g.'],
  },
  {
    county: 'Kauno apskritis',
    municipality: 'Jonavos r. sav.',
    city: 'Jonava',
    weight: 1,
    streets: ['Chemikų g.', 'Žeimių g.', 'Kauno g.'],
  },
  {
    county: 'Klaipėdos apskritis',
    municipality: 'Klaipėdos m. sav.',
    city: 'Klaipėda',
    weight: 3,
    streets: ['Taikos pr.', 'Herkaus Manto g.', 'Liepų g.', 'Tilžės g.', 'Minijos g.', 'Debreceno g.', 'Šilutės pl.'],
  },
  {
    county: 'Klaipėdos apskritis',
    municipality: 'Palangos m. sav.',
    city: 'Palanga',
    weight: 1,
    streets: ['Vytauto g.', 'Jūratės g.', 'Ganyklų g.'],
  },
  {
    county: 'Šiaulių apskritis',
    municipality: 'Šiaulių m. sav.',
    city: 'Šiauliai',
    weight: 2,
    streets: ['Tilžės g.', 'Vilniaus g.', 'Aušros al.', 'Dainų g.', 'Gegužių g.'],
  },
  {
    county: 'Panevėžio apskritis',
    municipality: 'Panevėžio m. sav.',
    city: 'Panevėžys',
    weight: 2,
    streets: ['Respublikos g.', 'Klaipėdos g.', 'Smėlynės g.', 'Ukmergės g.'],
  },
  {
    county: 'Alytaus apskritis',
    municipality: 'Alytaus m. sav.',
    city: 'Alytus',
    weight: 1,
    streets: ['Naujoji g.', 'Pulko g.', 'Ulonų g.'],
  },
  {
    county: 'Marijampolės apskritis',
    municipality: 'Marijampolės sav.',
    city: 'Marijampolė',
    weight: 1,
    streets: ['Kauno g.', 'Vytauto g.', 'Gedimino g.'],
  },
  {
    county: 'Utenos apskritis',
    municipality: 'Utenos r. sav.',
    city: 'Utena',
    weight: 1,
    streets: ['Utenio a.', 'Aušros g.', 'Basanavičiaus g.'],
  },
  {
    county: 'Telšių apskritis',
    municipality: 'Telšių r. sav.',
    city: 'Telšiai',
    weight: 1,
    streets: ['Respublikos g.', 'Žemaitės g.', 'Sedos g.'],
  },
  {
    county: 'Tauragės apskritis',
    municipality: 'Tauragės r. sav.',
    city: 'Tauragė',
    weight: 1,
    streets: ['Dariaus ir Girėno g.', 'Prezidento g.', 'Vytauto g.'],
  },
];

export const MALE_FIRST = [
  'Jonas',
  'Petras',
  'Antanas',
  'Tomas',
  'Mindaugas',
  'Darius',
  'Andrius',
  'Vytautas',
  'Gediminas',
  'Rimantas',
  'Saulius',
  'Lukas',
  'Mantas',
  'Justas',
  'Paulius',
  'Marius',
  'Egidijus',
  'Arūnas',
  'Žydrūnas',
  'Kęstutis',
  'Algirdas',
  'Šarūnas',
  'Audrius',
  'Ričardas',
];

export const FEMALE_FIRST = [
  'Rasa',
  'Ona',
  'Jurgita',
  'Rūta',
  'Asta',
  'Eglė',
  'Indrė',
  'Laura',
  'Giedrė',
  'Agnė',
  'Dalia',
  'Aušra',
  'Vaida',
  'Živilė',
  'Kristina',
  'Ieva',
  'Gintarė',
  'Milda',
  'Daiva',
  'Jūratė',
  'Neringa',
  'Austėja',
  'Ugnė',
  'Skaistė',
];

/** Men's surnames; women's forms are derived (femaleSurname). */
export const SURNAMES = [
  'Petrauskas',
  'Kazlauskas',
  'Jankauskas',
  'Stankevičius',
  'Vasiliauskas',
  'Žukauskas',
  'Butkus',
  'Paulauskas',
  'Urbonas',
  'Kavaliauskas',
  'Navickas',
  'Ramanauskas',
  'Savickas',
  'Baranauskas',
  'Žilinskas',
  'Mikalauskas',
  'Rimkus',
  'Šimkus',
  'Jonaitis',
  'Kairys',
  'Vaitkus',
  'Sakalauskas',
  'Adomaitis',
  'Gudaitis',
  'Lukoševičius',
  'Kučinskas',
  'Balčiūnas',
  'Mockus',
  'Čepulis',
  'Grigas',
];

/** A married woman's (-ienė) or an unmarried woman's (-aitė, -ytė, -iūtė, -utė) form of a man's surname. */
export function femaleSurname(male: string, married: boolean): string {
  const m = /^(.*?)(ius|as|is|ys|us)$/.exec(male);
  if (!m) return male;
  const [, stem, ending] = m as unknown as [string, string, string];
  if (married) return `${stem}ienė`;
  const unmarried: Record<string, string> = { as: 'aitė', is: 'ytė', ys: 'ytė', ius: 'iūtė', us: 'utė' };
  return stem + unmarried[ending];
}

const COMPANY_FIRST = ['Baltijos', 'Nemuno', 'Žalgirio', 'Vilties', 'Šviesos', 'Ąžuolo', 'Gintaro', 'Saulės', 'Rūtos'];
const COMPANY_SECOND = ['prekyba', 'paslaugos', 'statyba', 'valda', 'konsultacijos', 'vaistinė', 'kirpykla'];
const COMPANY_FORMS = ['UAB', 'MB', 'IĮ'];

export function companyName(pick: <T>(items: readonly T[]) => T): string {
  return `${pick(COMPANY_FORMS)} „${pick(COMPANY_FIRST)} ${pick(COMPANY_SECOND)}“`;
}

/** Rooms where allocators hang, in the order a flat gets them. */
export const ROOMS = ['Svetainė', 'Kambarys 1', 'Virtuvė', 'Kambarys 2', 'Miegamasis'];

/** wM-Bus manufacturer codes by device type, for CounterCode. */
export const MANUFACTURERS: Readonly<Record<number, string>> = {
  [DEVICE_TYPE.allocator]: 'QDS',
  [DEVICE_TYPE.heatMeter]: 'KAM',
  [DEVICE_TYPE.coldWaterMeter]: 'ZRI',
  [DEVICE_TYPE.hotWaterMeter]: 'ZRI',
  [DEVICE_TYPE.buildingHeatMeter]: 'KAM',
};

/**
 * Models by device type, of the manufacturers above (contract's DEVICE_MODELS, so the demo's
 * collector configuration names real wmbusmeters drivers); a building's devices of one type
 * share a model, picked by the building's id.
 */
export const MODELS: Readonly<Record<number, readonly string[]>> = {
  [DEVICE_TYPE.allocator]: ['Q caloric 5.5', 'Q caloric'],
  [DEVICE_TYPE.heatMeter]: ['Multical 403', 'Multical 302'],
  [DEVICE_TYPE.coldWaterMeter]: ['Minomess'],
  [DEVICE_TYPE.hotWaterMeter]: ['Minomess'],
  [DEVICE_TYPE.buildingHeatMeter]: ['Multical 603'],
};
