import {
  GROUP,
  type GroupId,
  type StatementFigure,
  type StatementHeatParameters,
  type StatementKindFigures,
  type StatementRow,
  type UserSession,
} from '@rodmenys/contract';
import { setSession } from '../storage';

/** The heat method of docs/heat-method.md's worked example, as frozen with a flat's figures (a flat of its own factor 1). */
export const EXAMPLE_PARAMETERS: StatementHeatParameters = {
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
};

/** Signs a user of `group` in for a component test (the session the app keeps after sign-in). */
export function signIn(group: GroupId = GROUP.user, overrides: Partial<UserSession> = {}): UserSession {
  const session: UserSession = {
    Token: 'test-token',
    Expires: '2999-01-01T00:00:00+02:00',
    Id: 10 + group,
    Username: `user${group}`,
    FirstName: 'Ona',
    LastName: 'Onaitė',
    GroupId: group,
    Email: null,
    Phone: null,
    SignedIn: null,
    TimeZone: 'Europe/Vilnius',
    ...overrides,
  };
  setSession(session);
  return session;
}

/** A statement figure of `value` (null: incomplete), measured unless `partial`. */
export const figure = (value: number | null, partial = false): StatementFigure => ({
  Value: value,
  Partial: partial,
  Incomplete: value === null,
  Sources: value === null ? [] : [partial ? 'estimated' : 'measured'],
});

/** One kind's figures of a flat, as the server answers them for a meter (allocators add units and Qrad). */
export function kindFigures(
  overrides: Partial<StatementKindFigures> & Pick<StatementKindFigures, 'Kind' | 'Unit'>,
): StatementKindFigures {
  return {
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
    ...overrides,
  };
}

/** A flat's row of the Statements table. */
export function statementRow(overrides: Partial<StatementRow> & Pick<StatementRow, 'FlatId' | 'Flat'>): StatementRow {
  return {
    BuildingId: 100,
    City: 'Vilnius',
    Street: 'Architektų g.',
    Building: '3',
    FlatOrder: Number(overrides.Flat) || null,
    AreaM2: null,
    ClientCode: null,
    Kinds: [],
    Published: null,
    ...overrides,
  };
}
