import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  getCampaignPrintList,
  listCampaigns,
  planCampaignVisit,
  recordNoAccess,
  sendCampaignNotices,
  updateCampaign,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../env.js';
import * as manage from '../services/campaigns/manage.js';
import { recordNoAccess as recordVisit } from '../services/campaigns/no-access.js';
import { sendCampaignNotices as sendNotices } from '../services/campaigns/notices.js';
import { CAMPAIGN_PDF_TEXTS, renderCampaignPrintList } from '../services/campaigns/print-list.js';
import * as progress from '../services/campaigns/progress.js';
import { createMailer, type Mailer } from '../services/mail/index.js';
import { defineRoute } from './define.js';

/** The mailer of a configuration, made once (no SMTP_URL: none, and every e-mail fails saying so). */
const mailers = new WeakMap<Config, Mailer | undefined>();
function mailerOf(config: Config): Mailer | undefined {
  if (!mailers.has(config)) mailers.set(config, createMailer(config));
  return mailers.get(config);
}

/** Exchange campaigns (docs/device-lifetime.md, "Exchange campaigns"). */
export default async function campaignRoutes(app: FastifyInstance) {
  defineRoute(app, listCampaigns, ({ caller, db }) => progress.listCampaigns(db, caller));
  defineRoute(app, getCampaign, ({ caller, db, params }) => progress.getCampaign(db, caller, params.id));
  defineRoute(app, createCampaign, ({ caller, db, body }) => manage.createCampaign(db, caller, body));
  defineRoute(app, updateCampaign, ({ caller, db, params, body }) =>
    manage.updateCampaign(db, caller, params.id, body.name),
  );
  defineRoute(app, deleteCampaign, ({ caller, db, params }) => manage.deleteCampaign(db, caller, params.id));
  defineRoute(app, planCampaignVisit, ({ caller, db, params, body }) =>
    manage.planVisit(db, caller, params.id, params.buildingId, body.visit),
  );
  defineRoute(app, sendCampaignNotices, ({ caller, db, params, config }) =>
    sendNotices(db, caller, params.id, mailerOf(config)),
  );
  defineRoute(app, getCampaignPrintList, async ({ db, params, query, reply }) => {
    const lang = query.lang ?? 'lt';
    const { stream, today } = await renderCampaignPrintList(db, params.id, lang);
    return reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        `attachment; filename="${CAMPAIGN_PDF_TEXTS[lang].file}-${params.id}-${today}.pdf"`,
      )
      .send(stream);
  });
  defineRoute(app, recordNoAccess, ({ caller, db, params, body }) =>
    recordVisit(db, caller, params.id, params.deviceId, body),
  );
}
