import {
  acknowledgeAnomaly,
  clearMonthEnd,
  countAnomalies,
  getDigestSubscription,
  getMonthEnds,
  getUnmeasuredMonthEnds,
  importDegreeDays,
  listAnomalies,
  listDegreeDays,
  listDqSettings,
  listJobs,
  resolveAnomaly,
  setDegreeDays,
  setMonthEnd,
  updateDigestSubscription,
  updateDqSetting,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import {
  changeAnomaly,
  countAnomalies as countAnomaliesInScope,
  listAnomalies as listAnomaliesInScope,
} from '../services/data-quality/anomalies.js';
import {
  importDegreeDays as importDegreeDaysCsv,
  listDegreeDays as listDegreeDayRows,
  setDegreeDays as setDegreeDayValue,
} from '../services/data-quality/degree-days.js';
import { getSubscription, updateSubscription } from '../services/data-quality/digest.js';
import {
  clearMonthEnd as clearManualMonthEnd,
  listMonthEnds,
  listUnmeasuredMonthEnds,
  setMonthEnd as setManualMonthEnd,
} from '../services/data-quality/list-month-ends.js';
import { listJobs as listJobRows, listSettings, updateSetting } from '../services/data-quality/settings-jobs.js';
import { parseIdList } from '../services/id-list.js';
import { scopeFor } from '../services/users/account-scope.js';
import { defineRoute } from './define.js';

/** Month-end values, anomalies, their settings and the scheduled work (docs/data-quality.md). */
export default async function dataQualityRoutes(app: FastifyInstance) {
  defineRoute(app, getMonthEnds, async ({ caller, params, query, db }) =>
    listMonthEnds(db, {
      deviceId: params.deviceId,
      from: query.from,
      till: query.till,
      scope: caller.scope,
    }),
  );
  defineRoute(app, getUnmeasuredMonthEnds, async ({ caller, query, db }) =>
    listUnmeasuredMonthEnds(db, {
      month: query.month,
      deviceTypeId: query.deviceTypeId,
      scope: await scopeFor(db, caller, query.userId),
      parents: parseIdList(query.locationParentId),
    }),
  );
  defineRoute(app, setMonthEnd, ({ caller, params, body, db }) =>
    setManualMonthEnd(db, caller, params.deviceId, params.month, body),
  );
  defineRoute(app, clearMonthEnd, async ({ caller, params, db }) => {
    await clearManualMonthEnd(db, caller, params.deviceId, params.month);
    return { message: 'Removed' };
  });
  defineRoute(app, listAnomalies, async ({ caller, query, db }) =>
    listAnomaliesInScope(db, { ...query, scope: caller.scope }),
  );
  defineRoute(app, countAnomalies, async ({ caller, query, db }) =>
    countAnomaliesInScope(db, { ...query, scope: caller.scope }),
  );
  defineRoute(app, acknowledgeAnomaly, async ({ caller, params, body, db }) =>
    changeAnomaly(db, caller, caller.scope, params.id, 'acknowledge', body.comment),
  );
  defineRoute(app, resolveAnomaly, async ({ caller, params, body, db }) =>
    changeAnomaly(db, caller, caller.scope, params.id, 'resolve', body.comment),
  );
  defineRoute(app, listDqSettings, ({ db }) => listSettings(db));
  defineRoute(app, updateDqSetting, ({ caller, params, body, db }) =>
    updateSetting(db, caller, params.key, body.value),
  );
  defineRoute(app, listJobs, ({ db }) => listJobRows(db));
  defineRoute(app, listDegreeDays, ({ query, db }) => listDegreeDayRows(db, query.year));
  defineRoute(app, setDegreeDays, ({ caller, params, body, db }) =>
    setDegreeDayValue(db, caller, params.cityId, params.month, body.value),
  );
  await app.register(async (csv) => {
    // The degree-days file arrives as text; JSON bodies elsewhere keep their parser.
    csv.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    defineRoute(csv, importDegreeDays, ({ caller, body, db }) => importDegreeDaysCsv(db, caller, body));
  });
  defineRoute(app, getDigestSubscription, ({ caller, db, config }) =>
    getSubscription(db, caller, Boolean(config.smtpUrl)),
  );
  defineRoute(app, updateDigestSubscription, ({ caller, body, db, config }) =>
    updateSubscription(db, caller, body, Boolean(config.smtpUrl)),
  );
}
