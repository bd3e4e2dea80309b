import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, Nullable, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { StatementLanguage } from './statements/figures.js';

/**
 * Exchange campaigns (docs/device-lifetime.md, "Exchange campaigns"): a named set of due devices,
 * a planned visit day per building, the occupants' notices (e-mail with consent, else a print
 * list), and progress derived from the devices themselves (replaced or re-verified since the
 * campaign started) plus the visits without access recorded per device.
 */

/** The longest campaign name and no-access reason. */
export const CAMPAIGN_NAME_MAX_LENGTH = 200;
export const NO_ACCESS_REASON_MAX_LENGTH = 500;
/** The most devices one campaign holds. */
export const CAMPAIGN_DEVICES_MAX = 5000;

/** A device's state in a campaign: done (replaced or re-verified), a visit without access, or still open. */
export const CAMPAIGN_DEVICE_STATES = ['done', 'noAccess', 'open'] as const;
export type CampaignDeviceState = (typeof CAMPAIGN_DEVICE_STATES)[number];
/** How a device was done: replaced through the replacement flow, or re-verified (a later verified-on day). */
export const CAMPAIGN_DONE_HOW = ['replaced', 'reverified'] as const;

/** A time of day, HH:MM (24 hours). */
export const TimeOfDay = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5 });

const CampaignName = Type.String({ minLength: 1, maxLength: CAMPAIGN_NAME_MAX_LENGTH, pattern: '\\S' });

export const CampaignCounts = Type.Object({
  Planned: Type.Integer({ minimum: 0 }),
  Done: Type.Integer({ minimum: 0 }),
  NoAccess: Type.Integer({ minimum: 0 }),
  Open: Type.Integer({ minimum: 0 }),
});
export type CampaignCounts = Static<typeof CampaignCounts>;

export const CampaignSummary = Type.Object({
  Id: Id,
  Name: Type.String(),
  /** The day the campaign started (its creation): replacements and verifications from then on count. */
  StartedOn: Day,
  CreatedBy: Nullable(Type.String()),
  BuildingCount: Type.Integer({ minimum: 0 }),
  Counts: CampaignCounts,
});
export type CampaignSummary = Static<typeof CampaignSummary>;

export const NoAccessVisit = Type.Object({
  Id: Id,
  Day: Day,
  Reason: Type.String(),
  RecordedAt: Timestamp,
  RecordedBy: Nullable(Type.String()),
});
export type NoAccessVisit = Static<typeof NoAccessVisit>;

export const CampaignDevice = Type.Object({
  DeviceId: Id,
  Flat: Nullable(Type.String()),
  FlatOrder: Nullable(Type.Integer()),
  DeviceTypeId: Type.Integer(),
  DeviceCode: Type.String(),
  State: Type.Union(CAMPAIGN_DEVICE_STATES.map((s) => Type.Literal(s))),
  DoneHow: Nullable(Type.Union(CAMPAIGN_DONE_HOW.map((s) => Type.Literal(s)))),
  /** The replacement or the new verification day. */
  DoneOn: Nullable(Day),
  /** The device that replaced it. */
  NewDeviceCode: Nullable(Type.String()),
  NoAccess: Type.Array(NoAccessVisit),
});
export type CampaignDevice = Static<typeof CampaignDevice>;

export const CampaignVisit = Type.Object({ Day: Day, From: Nullable(TimeOfDay), To: Nullable(TimeOfDay) });
export type CampaignVisit = Static<typeof CampaignVisit>;

export const CampaignBuilding = Type.Object({
  BuildingId: Id,
  Address: Type.String(),
  Visit: Nullable(CampaignVisit),
  Counts: CampaignCounts,
  /** Occupants told of the planned day: by e-mail, and on the print list. */
  Mailed: Type.Integer({ minimum: 0 }),
  Printed: Type.Integer({ minimum: 0 }),
  Devices: Type.Array(CampaignDevice),
});
export type CampaignBuilding = Static<typeof CampaignBuilding>;

export const CampaignDetail = Type.Object({
  ...CampaignSummary.properties,
  Buildings: Type.Array(CampaignBuilding),
});
export type CampaignDetail = Static<typeof CampaignDetail>;

const CampaignParams = Type.Object({ id: Id });

export const listCampaigns = defineEndpoint({
  method: 'GET',
  path: '/campaigns',
  summary:
    'Exchange campaigns with their progress (docs/device-lifetime.md). Group 1 all; group 2 those with a building ' +
    'in its scope, counted over that scope; group 3: 403.',
  tags: ['lifetime'],
  auth: 'user',
  response: Type.Array(CampaignSummary),
});

export const getCampaign = defineEndpoint({
  method: 'GET',
  path: '/campaigns/:id',
  summary:
    'One exchange campaign: per building the visit day, the counts and each device with its state. Group 2 sees ' +
    'its scope (another campaign: 404).',
  tags: ['lifetime'],
  auth: 'user',
  params: CampaignParams,
  response: CampaignDetail,
});

export const createCampaign = defineEndpoint({
  method: 'POST',
  path: '/campaigns',
  summary: 'Starts an exchange campaign over devices in service (picked from a due list); audited. Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  body: Type.Object({
    name: CampaignName,
    deviceIds: Type.Array(Id, { minItems: 1, maxItems: CAMPAIGN_DEVICES_MAX, uniqueItems: true }),
  }),
  response: CampaignDetail,
  status: 201,
});

export const updateCampaign = defineEndpoint({
  method: 'PUT',
  path: '/campaigns/:id',
  summary: 'Renames an exchange campaign; audited. Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  params: CampaignParams,
  body: Type.Object({ name: CampaignName }),
  response: CampaignDetail,
});

export const deleteCampaign = defineEndpoint({
  method: 'DELETE',
  path: '/campaigns/:id',
  summary: 'Deletes an exchange campaign with its plan, notices and visits (the devices stay); audited. Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  params: CampaignParams,
  response: Type.Object({ Id: Id }),
});

export const planCampaignVisit = defineEndpoint({
  method: 'PUT',
  path: '/campaigns/:id/buildings/:buildingId/visit',
  summary:
    "Plans (or with null clears) a building's visit day of a campaign, optionally with a time window; audited. " +
    'Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  params: Type.Object({ id: Id, buildingId: Id }),
  body: Type.Object({ visit: Nullable(CampaignVisit) }),
  response: CampaignDetail,
});

export const sendCampaignNotices = defineEndpoint({
  method: 'POST',
  path: '/campaigns/:id/notices',
  summary:
    "Tells the occupants of the campaign's open devices their building's visit day: an e-mail in their language " +
    'where they consented, else a line on the print list; an occupant already told of that day is not told again. ' +
    'Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  params: CampaignParams,
  response: Type.Object({
    /** E-mails the mail server accepted now. */
    Mailed: Type.Integer({ minimum: 0 }),
    /** E-mails it refused or that could not be sent (tried again on the next send). */
    Failed: Type.Integer({ minimum: 0 }),
    /** Occupants newly on the print list. */
    Printed: Type.Integer({ minimum: 0 }),
    /** Occupants already told of the same day before. */
    AlreadyTold: Type.Integer({ minimum: 0 }),
  }),
});

export const getCampaignPrintList = defineEndpoint({
  method: 'GET',
  path: '/campaigns/:id/print-list',
  summary:
    "The campaign's notices on paper (PDF): one per occupant without e-mail consent, with the visit day, sorted by " +
    'address, floor and flat. Group 1 only.',
  tags: ['lifetime'],
  auth: 'operator',
  params: CampaignParams,
  querystring: Type.Object({ lang: Type.Optional(StatementLanguage) }),
  response: Type.String(),
  produces: 'application/pdf',
});

export const recordNoAccess = defineEndpoint({
  method: 'POST',
  path: '/campaigns/:id/devices/:deviceId/no-access',
  summary:
    "Records a visit without access to a campaign's device (day and reason; who and when are kept); audited. " +
    'Group 1, and group 2 within its scope.',
  tags: ['lifetime'],
  auth: 'user',
  params: Type.Object({ id: Id, deviceId: Id }),
  body: Type.Object({
    day: Day,
    reason: Type.String({ minLength: 1, maxLength: NO_ACCESS_REASON_MAX_LENGTH, pattern: '\\S' }),
  }),
  response: NoAccessVisit,
  status: 201,
});
