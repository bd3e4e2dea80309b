import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import type { Db, Tx } from '@rodmenys/server/db/db.js';
import { PUBLICATION_FOLLOWERS } from '@rodmenys/server/publication.js';
import type { Caller } from '@rodmenys/server/services/auth/caller.js';
import { publishStatements } from '@rodmenys/server/services/statements/publish.js';
import { publishRolledBack, writtenDifferences } from './publish-compare.js';
import { PUBLICATION_FOLLOWERS as FOLLOWERS_BEFORE } from './statements-before/publication.js';
import { publishStatements as publishBefore } from './statements-before/publish.js';
import { againstAim } from './statements-compare.js';
import { median, summarise, type Timing, timed } from './stats.js';

/*
 * bench:statements' publishing step (docs/benchmarks.md): every building's first version, publishing again
 * with nothing changed (every follower: the billing export compared), and again after a month-end value and a
 * reading's time moved; each by the path before (commit 56f68cb: lib/statements-before/) and by the path now, from
 * the same database (rolled back), and what both wrote compared row by row; the path now over HTTP too.
 */

type Add = (step: string, t: Timing | number, aim: string, detail: string) => void;
type Publish = (body: { month: string }) => Promise<{ Buildings: number; Flats: number }>;

const FIRST_AIM_MS = 3000;
const AGAIN_AIM_MS = 2000;

/** A month-end value of one flat's allocator moved (a figure changes), and one meter's reading time (the export only). */
export async function moveValues(tx: Tx, month: string) {
  await tx.query(
    `UPDATE month_end SET value = value + 1 WHERE month = $1::date AND device_id =
       (SELECT min(id) FROM device WHERE device_type_id = ${DEVICE_TYPE.allocator} AND removed_at IS NULL)`,
    [`${month}-01`],
  );
  await tx.query(
    `UPDATE month_end SET reading_ts = reading_ts - interval '1 minute' WHERE month = $1::date AND source = 'measured'
        AND device_id = (SELECT max(id) FROM device WHERE device_type_id = ${DEVICE_TYPE.coldWaterMeter} AND removed_at IS NULL)`,
    [`${month}-01`],
  );
}

export async function publishingRows(
  database: string,
  db: Db,
  month: string,
  publish: Publish,
  add: Add,
  failures: string[],
): Promise<void> {
  const { rows: me } = await db.query<{ id: number; username: string }>(
    "SELECT id, username FROM app_user WHERE username LIKE 'bench-%' ORDER BY id DESC LIMIT 1",
  );
  const caller: Caller = {
    id: me[0]!.id,
    groupId: GROUP.operator,
    username: me[0]!.username,
    scope: null,
    token: { userId: me[0]!.id, jti: 'bench', expiresAt: new Date(Date.now() + 3_600_000), generation: 0 },
  };
  const before = (d: Db) => publishBefore(d, caller, month, null, false, FOLLOWERS_BEFORE);
  const now = (d: Db) => publishStatements(d, caller, month, null, false, PUBLICATION_FOLLOWERS);
  const compared = async (what: string, prepare?: (tx: Tx) => Promise<void>) => {
    const b = await publishRolledBack(db, month, before, prepare);
    const a = await publishRolledBack(db, month, now, prepare);
    const diff = writtenDifferences(b.written, a.written);
    failures.push(...diff.map((d) => `${database}, publishing ${what}: ${d}`));
    const rows = a.written.rows.length.toLocaleString('en-US');
    const answer = JSON.parse(a.written.answer) as { Buildings: number; Changes: unknown[] };
    return {
      before: b.ms,
      now: a.ms,
      note: diff.length
        ? `FAILED: ${diff.length} differences`
        : `the same ${rows} rows written (versions, snapshots, export rows, audit), ${answer.Buildings} versions, ${answer.Changes.length} changed figures`,
    };
  };

  const first = await compared('the first version');
  add('publish every building, first version: the path before (rolled back)', first.before, '-', first.note);
  add('the same, the path now (rolled back)', first.now, '-', 'in the same run');
  const p1 = await timed(() => publish({ month }));
  add(
    'publish every building, first version, over HTTP',
    p1.ms,
    '3 s',
    `${p1.result.Buildings} buildings, ${p1.result.Flats} flats; ${againstAim(p1.ms, FIRST_AIM_MS)}`,
  );
  // Nothing changed: every follower (the billing export compared), over HTTP and by the path before, alternating.
  const times: [number[], number[]] = [[], []];
  const answers = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const a = await timed(() => publish({ month }));
    times[0].push(a.ms);
    answers.add(JSON.stringify(a.result));
    if (a.result.Buildings !== 0)
      failures.push(`${database}: publishing again with nothing changed made ${a.result.Buildings} versions`);
    const b = await publishRolledBack(db, month, before);
    times[1].push(b.ms);
    answers.add(b.written.answer);
  }
  if (answers.size !== 1) failures.push(`${database}: publishing again answered ${answers.size} different ways`);
  const again = summarise(times[0]);
  add(
    'publish again, nothing changed, over HTTP (every follower: the export compared)',
    again,
    '2 s',
    `${answers.size === 1 ? 'the same answer both ways' : 'FAILED: different answers'}; ${againstAim(again.medianMs, AGAIN_AIM_MS)}`,
  );
  add('the same, the path before', summarise(times[1]), '-', `median ${Math.round(median(times[1]))} ms`);
  const moved = await compared('again after a month-end value and a reading time moved', (tx) => moveValues(tx, month));
  add(
    'publish again after a value and a reading time moved: the path before (rolled back)',
    moved.before,
    '-',
    moved.note,
  );
  add('the same, the path now (rolled back)', moved.now, '-', 'in the same run');
}
