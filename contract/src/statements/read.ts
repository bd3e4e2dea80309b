import { Type } from '@sinclair/typebox';
import { Id, IdList, MonthParam } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { FlatOccupancyStatement, FlatStatement, StatementLanguage, StatementRow } from './figures.js';

/** The statements as read: a selection's figures, one flat's statement, the PDF (docs/statements.md). */

const Selection = {
  month: MonthParam,
  /** Subtrees to include (location ids); absent = everything in scope. */
  locationParentId: Type.Optional(IdList),
  /** As in GetDevicesData: another user's scope (groups 1 and 2), narrowed to the caller's. */
  userId: Type.Optional(Id),
};

export const getStatementFigures = defineEndpoint({
  method: 'GET',
  path: '/statements/figures',
  summary:
    'The monthly figures of every flat of a selection for month `month` (docs/statements.md): consumption in the ' +
    'month, the month before and the same month a year before per kind, the building average, allocators in units, ' +
    'Qrad and kWh. A published building answers its frozen figures. A flat with more than one occupant in the ' +
    "month also has each occupant's part in `Occupancies`, in the flat's order (docs/occupancies.md).",
  tags: ['statements'],
  auth: 'user',
  standbyMayAnswer: true,
  querystring: Type.Object(Selection),
  response: Type.Object({
    Month: MonthParam,
    Rows: Type.Array(StatementRow),
    /** The occupants' parts of the flats with a move in the month (their rows on the page), in the rows' order. */
    Occupancies: Type.Array(FlatOccupancyStatement),
  }),
});

export const getFlatStatement = defineEndpoint({
  method: 'GET',
  path: '/statements/flats/:flatId',
  summary: "One flat's statement for a month: its figures and the last 13 months per kind. 404 outside the scope.",
  tags: ['statements'],
  auth: 'user',
  standbyMayAnswer: true,
  params: Type.Object({ flatId: Id }),
  querystring: Type.Object({ month: MonthParam }),
  response: FlatStatement,
});

export const getStatementsPdf = defineEndpoint({
  method: 'GET',
  path: '/statements/pdf',
  summary:
    'The statements of a selection as PDF, one flat per page: one building answers one PDF, several a zip of one ' +
    'PDF per building (docs/statements.md).',
  tags: ['statements'],
  auth: 'user',
  standbyMayAnswer: true,
  querystring: Type.Object({ ...Selection, lang: Type.Optional(StatementLanguage) }),
  response: Type.String(),
  produces: 'application/pdf',
});
