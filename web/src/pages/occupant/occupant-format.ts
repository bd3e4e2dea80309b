import type { OccupantProfile } from '@rodmenys/contract';
import type { TFunction } from 'i18next';

/** The flat's address as the occupant writes it: "Architektų g. 3-12, Vilnius" (lt), "Architektų g. 3, flat 12, Vilnius" (en). */
export const occupantAddress = (p: Pick<OccupantProfile, 'City' | 'Street' | 'Building' | 'Flat'>, t: TFunction) =>
  t('occupant.address', { street: p.Street, building: p.Building, flat: p.Flat, city: p.City });

/** A day (YYYY-MM-DD) in the UI language: "2026 m. lapkričio 3 d.", "3 November 2026". */
export const formatDay = (day: string, language: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString(language === 'en' ? 'en-GB' : language, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
