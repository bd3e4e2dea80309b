import type { Page } from '@playwright/test';
import {
  type DeviceTypeInSelection,
  getDeviceDataByUserId,
  getDevicesData,
  getDeviceTypesInSelection,
  type ReadingColumn,
  type ReadingRow,
  type UserSession,
  userLocationRights,
} from '@rodmenys/contract';
import lt from '../../../web/src/i18n/lt.json' with { type: 'json' };
import { api, expect, session } from '../fixtures';

// The device data screen's helpers for its specs (docs/device-data.md): the demo's places, the
// readings the API answers, and the screen's parts.

/** A day as YYYY-MM-DD in a zone (the provider's by default: the demo server runs in Europe/Vilnius). */
export const dayIn = (d: Date, timeZone = 'Europe/Vilnius') => new Intl.DateTimeFormat('en-CA', { timeZone }).format(d);
/** The default period (first of this month to today, on the provider's clock), as the screen sends it. */
export const period = () => {
  const today = dayIn(new Date());
  return { dateFrom: `${today.slice(0, 8)}01 00:00:00`, dateTill: `${today} 23:59:59` };
};
export const columnTitle = (c: ReadingColumn, texts = lt) =>
  texts.deviceData.columns[c.key as keyof typeof lt.deviceData.columns];
export const fixed = (n: number | null | undefined) => (n === null || n === undefined ? '' : n.toFixed(3));
export const shownTime = (s: string | null) => (s ? `${s.slice(0, 10)} ${s.slice(11, 16)}` : '');

export interface Place {
  me: UserSession;
  buildingId: number;
  /** The building's node in the tree: "Street No., City". */
  title: string;
  types: DeviceTypeInSelection[];
}

/** The signed-in user's first building, as the tree shows it, and the device types in it. */
export async function place(account: { username: string; password: string }): Promise<Place> {
  const me = await session(account);
  const rights = (await api(userLocationRights, { params: { userId: me.Id }, token: me.Token })).body;
  const devices = (await api(getDeviceDataByUserId, { token: me.Token })).body;
  const buildingIds = new Set(rights.map((r) => r.VisibleLocationId).filter((id) => id !== 0));
  // The manager's building is the demo's case building; for the administrator, the one holding the most types.
  const candidates = [...buildingIds].map((id) => {
    const inside = devices.filter((d) => (d.Flat === null ? d.LocationId : d.ParentLocationId) === id);
    return { id, inside, typeCount: new Set(inside.map((d) => d.DeviceTypeId)).size };
  });
  candidates.sort((a, b) => b.typeCount - a.typeCount);
  const best = candidates[0]!;
  const sample = best.inside[0]!;
  const title = `${sample.Street} ${sample.Building}, ${sample.City}`;
  const types = (
    await api(getDeviceTypesInSelection, {
      query: { locationParentId: String(best.id), ...period() },
      token: me.Token,
    })
  ).body;
  return { me, buildingId: best.id, title, types };
}

export async function readings(p: Place, deviceTypeId: number): Promise<ReadingRow[]> {
  const res = await api(getDevicesData, {
    query: { deviceTypeId, locationParentId: String(p.buildingId), ...period() },
    token: p.me.Token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

export async function openScreen(page: Page, texts = lt) {
  await page.getByRole('navigation').getByRole('link', { name: texts.nav.deviceData }).click();
  await expect(page.getByRole('heading', { name: texts.nav.deviceData })).toBeVisible();
}

/** Ticks a building in the location tree (searching for it, as with thousands of flats). */
export async function tickBuilding(page: Page, title: string, texts = lt) {
  const box = page.getByRole('combobox', { name: texts.deviceData.tree.label });
  await box.click();
  await box.fill(title.split(',')[0]!);
  await page
    .locator('.ant-select-tree-treenode', { hasText: title })
    .first()
    .locator('.ant-select-tree-checkbox')
    .click();
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-select-selection-item', { hasText: title })).toBeVisible();
}

export const typesTable = (page: Page, texts = lt) =>
  page.locator('.ant-card', { hasText: texts.deviceData.types.title }).getByRole('table');
/**
 * A device's meter status as the table shows it (tags side by side) or the export writes it (`, `):
 * its translated status flags, else "unknown" for a silent row (NO_READING, STALE), else "OK".
 */
export const statusText = (row: ReadingRow, separator = '') =>
  row.StatusFlags.length > 0
    ? row.StatusFlags.map((f) => (lt.statusFlags as Record<string, string>)[f] ?? f).join(separator)
    : row.Flags.includes('NO_READING') || row.Flags.includes('STALE')
      ? lt.deviceStatus.silent
      : lt.deviceStatus.ok;
export const detail = (page: Page, texts = lt) => page.getByRole('region', { name: texts.deviceData.detail.title });
export const detailRows = (page: Page) => page.locator('.readings-table .ant-table-row');
export const detailRow = (page: Page, code: string) => detailRows(page).filter({ hasText: code });

export const typeRow = (page: Page, typeId: number, texts = lt) =>
  typesTable(page, texts).locator(`.ant-table-row[data-row-key="${typeId}"]`);

export async function pickType(page: Page, typeId: number, expected: number, texts = lt) {
  await typeRow(page, typeId, texts).click();
  await expect(page.getByText(texts.deviceData.found.title.replace('{{count}}', String(expected)))).toBeVisible();
}

export async function selectAll(page: Page, texts = lt) {
  await page.getByRole('button', { name: texts.deviceData.found.selectAll }).click();
  await expect(detail(page, texts)).toBeVisible();
}

/** The header texts of the detail table, in order (each header holds its title and a filter box). */
export async function headerTitles(page: Page): Promise<string[]> {
  return (await page.locator('.readings-table .column-title').allTextContents()).map((s) => s.trim());
}

/** Detail rows are virtual: scroll the table body so that a row is drawn. */
export async function scrollDetailToTop(page: Page) {
  await page.locator('.readings-table .ant-table-tbody-virtual-holder').evaluate((el) => el.scrollTo(0, 0));
}
