import type { Locator, Page } from '@playwright/test';
import {
  getStatementFigures,
  HEAT_BAR_PARTS,
  type StatementHeatBalance,
  type StatementHeatParts,
  type StatementRow,
} from '@rodmenys/contract';
import { api, DEMO, expect, session, test } from './fixtures';
import {
  dialogSettled,
  figuresReady,
  type Language,
  lastMonth,
  openStatements,
  seriousViolations,
  settle,
  signInAs,
  TEXTS,
} from './screens';

// The heat balance as a picture (docs/statements.md, "The heat balance as a picture"; docs/accessibility.md,
// "Pictures of numbers"): on Statements the building's input as one bar of its seven parts; in a flat's
// statement the flat's own parts beside it. Each part named with its value and share, in the UI language,
// told apart by pattern and number, the numbers read by a screen reader; at a desktop's and a tablet's width.

const month = lastMonth();
const heating = (r: StatementRow) => r.Kinds.find((k) => k.Kind === 'heating');

/** A number as the screens write it in the language (up to `digits` decimals). */
const num = (v: number, language: Language, digits: number) =>
  v.toLocaleString(language, { maximumFractionDigits: digits });
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

/** A demo building whose heating the month split by its heat method, and a flat of it with parts. */
async function splitBuilding() {
  const me = await session(DEMO.operator);
  const { body } = await api(getStatementFigures, { token: me.Token, query: { month } });
  const row = body.Rows.find((r) => heating(r)?.HeatBalance?.Status === 'split' && heating(r)?.HeatParts);
  expect(row, `a demo building split by its heat method in ${month} (docs/heat-method.md, "In the demo")`).toBeTruthy();
  const r = row!;
  return {
    title: `${r.Street} ${r.Building}`,
    flatId: r.FlatId,
    balance: heating(r)!.HeatBalance!,
    parts: heating(r)!.HeatParts!,
  };
}

/** What a bar's legend lists: each part's number, name, value in kWh and share of the bar. */
function legend(parts: { label: string; value: number; n: number }[], language: Language): string[] {
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  return parts.map(
    (p) =>
      `${p.n}${p.label} ${num(p.value, language, 3)} kWh (${num((Math.max(0, p.value) / total) * 100, language, 1)} %)`,
  );
}

/** The building's seven parts in the bar's order, each with its number. */
function buildingParts(b: StatementHeatBalance, language: Language) {
  const t = TEXTS[language].statements;
  return HEAT_BAR_PARTS.flatMap((x, i) =>
    x.Balance ? [{ key: x.Name, label: t.balanceParts[x.Name], value: b[x.Balance] ?? 0, n: i + 1 }] : [],
  );
}
/** A flat's parts (those it has none of left out) in the same order and with the same numbers. */
function flatParts(p: StatementHeatParts, language: Language) {
  const t = TEXTS[language].statements;
  return HEAT_BAR_PARTS.flatMap((x, i) =>
    p[x.Flat] !== 0 ? [{ key: x.Name, label: t.flatPartNames[x.Name], value: p[x.Flat], n: i + 1 }] : [],
  );
}

/**
 * One bar as a person and a screen reader meet it: the figure named by its caption, the legend a list
 * of every part with its value and share, the drawn bar hidden from the screen reader, its segments as
 * wide as their shares, each with its own pattern and (where it has room) its number.
 */
async function checkBar(
  figure: Locator,
  parts: { key: string; label: string; value: number; n: number }[],
  language: Language,
) {
  await expect(figure).toBeVisible();
  await expect(figure.getByRole('listitem')).toHaveText(legend(parts, language));
  const track = figure.locator('.split-bar-track');
  await expect(track).toHaveAttribute('aria-hidden', 'true');
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  const drawn = parts.filter((p) => p.value > 0);
  const segments = track.locator('.split-bar-part');
  await expect(segments).toHaveCount(drawn.length);
  const trackBox = (await track.boundingBox())!;
  const seen = await segments.evaluateAll((els) =>
    els.map((el) => ({
      part: (el as HTMLElement).dataset.part,
      width: el.getBoundingClientRect().width,
      pattern: `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).backgroundImage}`,
      border: getComputedStyle(el).borderLeftWidth,
      key: el.textContent,
    })),
  );
  expect(seen.map((s) => s.part)).toEqual(drawn.map((p) => p.key));
  // Every part its own pattern (not only its colour's hue): no two alike.
  expect(new Set(seen.map((s) => s.pattern)).size).toBe(seen.length);
  seen.forEach((s, i) => {
    const share = drawn[i]!.value / total;
    // Within 2 % of the bar (a part too small to draw keeps a 3 px sliver; the borders take a pixel each).
    expect(Math.abs(s.width / trackBox.width - share), `${s.part}'s width`).toBeLessThan(0.02);
    if (i > 0) expect(s.border, `${s.part}'s border`).toBe('1px');
    if (share >= 0.05) expect(s.key, `${s.part}'s number`).toBe(String(drawn[i]!.n));
  });
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `.artifacts/heat-balance-picture/${name}.png`, fullPage: false });
}

test.describe('the heat balance as a picture', () => {
  test.setTimeout(240_000);

  for (const language of ['lt', 'en'] as const)
    test(`Statements and a flat's statement draw the balance as bars, in ${language}, at 1440 and 768 px`, async ({
      page,
    }) => {
      await figuresReady('operator');
      const b = await splitBuilding();
      const t = TEXTS[language];
      const method = t.statements.methodNames[b.balance.Method as keyof typeof t.statements.methodNames];
      const title = fill(t.statements.balanceBar, {
        method,
        from: b.balance.ValidFrom,
        input: num(b.balance.InputKwh!, language, 3),
      });
      const flatTitle = fill(t.statements.flatBar, {
        total: num(b.parts.Total, language, 3),
        share: `${num((b.parts.Total / b.balance.InputKwh!) * 100, language, 1)} %`,
      });
      await signInAs(page, 'operator', language);
      for (const width of [1440, 768]) {
        await page.setViewportSize({ width, height: 900 });
        // Statements: the building's bar above its flats, named by its caption.
        await openStatements(page, t, b.title, month);
        const balances = page.getByTestId('building-balances');
        const bar = balances.getByRole('figure', { name: `${b.title}: ${title}`, exact: true });
        await checkBar(bar, buildingParts(b.balance, language), language);
        // The numbers stay in the table too: the heat columns by the method.
        await expect(page.getByRole('columnheader', { name: t.statements.heatPartsGroup }).first()).toBeVisible();
        await bar.scrollIntoViewIfNeeded();
        await settle(page);
        await shot(page, `statements-${language}-${width}`);
        expect(await seriousViolations(page)).toEqual([]);

        // A flat's statement: the building's bar and the flat's beside it (under it on a tablet), each said what it is.
        await page.goto(`/statements?month=${month}&flat=${b.flatId}`);
        const drawer = page.getByRole('dialog').filter({ hasText: t.statements.statementTitle });
        await dialogSettled(page, drawer);
        await expect(drawer.getByText(t.statements.heatBarsNote)).toBeVisible();
        const building = drawer.getByRole('figure', { name: title, exact: true });
        const flat = drawer.getByRole('figure', { name: flatTitle, exact: true });
        await checkBar(building, buildingParts(b.balance, language), language);
        await checkBar(flat, flatParts(b.parts, language), language);
        // Side by side where the drawer has room for both, else one under the other; never cut off.
        const [bb, fb] = [(await building.boundingBox())!, (await flat.boundingBox())!];
        expect(fb.x >= bb.x + bb.width - 1 || fb.y >= bb.y + bb.height - 1, 'apart').toBe(true);
        expect(Math.max(bb.x + bb.width, fb.x + fb.width), 'within the window').toBeLessThanOrEqual(width);
        await building.scrollIntoViewIfNeeded();
        await settle(page);
        await shot(page, `statement-${language}-${width}`);
        expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
        await page.keyboard.press('Escape');
        await expect(drawer).toBeHidden();
      }
    });
});
