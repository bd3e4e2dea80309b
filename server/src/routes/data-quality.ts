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
  runJob,
  setDegreeDays,
  setMonthEnd,
  updateDigestSubscription,
  updateDqSetting,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { JOBS } from '../jobs.js';
import * as anomalies from '../services/data-quality/anomalies.js';
import * as degreeDays from '../services/data-quality/degree-days.js';
import { getSubscription, updateSubscription } from '../services/data-quality/digest.js';
import * as monthEnds from '../services/data-quality/list-month-ends.js';
import * as settingsJobs from '../services/data-quality/settings-jobs.js';
import { parseIdList } from '../services/id-list.js';
import { scopeFor } from '../services/users/account-scope.js';
import { defineRoute } from './define.js';

/** Month-end values, anomalies, their settings and the scheduled work (docs/data-quality.md). */
export default async function dataQualityRoutes(app: FastifyInstance) {
  defineRoute(app, getMonthEnds, async ({ caller, params, query, db }) =>
    monthEnds.listMonthEnds(db, {
      deviceId: params.deviceId,
      from: query.from,
      till: query.till,
      scope: caller.scope,
      reader: caller,
    }),
  );
  defineRoute(app, getUnmeasuredMonthEnds, async ({ caller, query, db }) =>
    monthEnds.listUnmeasuredMonthEnds(db, {
      month: query.month,
      deviceTypeId: query.deviceTypeId,
      scope: await scopeFor(db, caller, query.userId),
      parents: parseIdList(query.locationParentId),
      reader: caller,
    }),
  );
  defineRoute(app, setMonthEnd, ({ caller, params, body, db }) =>
    monthEnds.setMonthEnd(db, caller, params.deviceId, params.month, body),
  );
  defineRoute(app, clearMonthEnd, async ({ caller, params, db }) => {
    await monthEnds.clearMonthEnd(db, caller, params.deviceId, params.month);
    return { message: 'Removed' };
  });
  defineRoute(app, listAnomalies, async ({ caller, query, db }) =>
    anomalies.listAnomalies(db, { ...query, scope: caller.scope }, caller),
  );
  defineRoute(app, countAnomalies, async ({ caller, query, db }) =>
    anomalies.countAnomalies(db, { ...query, scope: caller.scope }),
  );
  defineRoute(app, acknowledgeAnomaly, async ({ caller, params, body, db }) =>
    anomalies.changeAnomaly(db, caller, caller.scope, params.id, 'acknowledge', body.comment),
  );
  defineRoute(app, resolveAnomaly, async ({ caller, params, body, db }) =>
    anomalies.changeAnomaly(db, caller, caller.scope, params.id, 'resolve', body.comment),
  );
  defineRoute(app, listDqSettings, ({ db }) => settingsJobs.listSettings(db));
  defineRoute(app, updateDqSetting, ({ caller, params, body, db }) =>
    settingsJobs.updateSetting(db, caller, params.key, body.value, JOBS),
  );
  defineRoute(app, listJobs, ({ db }) => settingsJobs.listJobs(db));
  defineRoute(app, runJob, ({ caller, params, db }) => settingsJobs.runJobNow(db, caller, JOBS, params.name));
  defineRoute(app, listDegreeDays, ({ query, db }) => degreeDays.listDegreeDays(db, query.year));
  defineRoute(app, setDegreeDays, ({ caller, params, body, db }) =>
    degreeDays.setDegreeDays(db, caller, params.cityId, params.month, body.value),
  );
  await app.register(async (csv) => {
    // The degree-days file arrives as text; JSON bodies elsewhere keep their parser.
    csv.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    defineRoute(csv, importDegreeDays, ({ caller, body, db }) => degreeDays.importDegreeDays(db, caller, body));
  });
  defineRoute(app, getDigestSubscription, ({ caller, db, config }) =>
    getSubscription(db, caller, Boolean(config.smtpUrl)),
  );
  defineRoute(app, updateDigestSubscription, ({ caller, body, db, config }) =>
    updateSubscription(db, caller, body, Boolean(config.smtpUrl)),
  );
}
