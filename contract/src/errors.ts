/**
 * Every error the server answers, by a stable code, with its English text. The server sends
 * `{ code, params, message }` (message = this text with the params filled in); the web app shows
 * its own translation of `code` (web/src/i18n, `serverErrors`), or the message when it has none.
 * Placeholders are `{{name}}`; params are strings. docs/ARCHITECTURE.md, "Errors".
 */
export const ERROR_MESSAGES = {
  // Generic answers by status.
  badRequest: 'The request is not valid',
  signInFirst: 'Sign in first',
  sessionEnded: 'Your session has ended; sign in again',
  forbidden: 'You are not allowed to do this',
  notFound: 'Not found',
  tooManyRequests: 'Too many requests; try again later',
  unsupportedMediaType: 'This content type is not accepted',
  internal: 'Internal server error',
  // The database away (503 with Retry-After; docs/operations.md, "The database away").
  databaseUnavailable: 'The database is not answering; try again in a few seconds',
  // Validation of one field (400 with `errors`). The message of a schema check is the validator's own text.
  required: '{{field}} is required',
  notAccepted: '{{field}} is not an accepted field',
  tooShort: '{{field}} must NOT have fewer than {{limit}} characters',
  tooLong: '{{field}} must NOT have more than {{limit}} characters',
  tooSmall: '{{field}} must be >= {{limit}}',
  tooLarge: '{{field}} must be <= {{limit}}',
  tooFewItems: '{{field}} must NOT have fewer than {{limit}} items',
  tooManyItems: '{{field}} must NOT have more than {{limit}} items',
  invalid: '{{field}} is invalid',
  blank: '{{field}} cannot be blank',
  nulCharacter: '{{field}} must not contain the character U+0000',
  nulInFieldName: 'a field name contains U+0000',
  notFinite: '{{field}} must be a finite number',
  nestedTooDeep: '{{field}} is nested more than {{max}} levels deep',
  bodyTooLarge: '{{field}} is larger than this endpoint accepts',
  // The framework's own refusals, before a route runs (docs/input-limits.md).
  pathTooLong: 'A part of the address is longer than {{max}} characters',
  malformedUrl: 'The address is not a valid URL',
  headersTooLarge: 'The request headers are larger than the server accepts',
  requestTimeout: 'The request did not arrive in time',
  rangeNotSatisfiable: 'The requested range is not in the file',
  // Sign-in and accounts.
  wrongCredentials: 'The user name or password is incorrect, or the account is deactivated',
  tooManyFailedSignIns: 'Too many failed sign-ins; try again later',
  tooManyRegistrations: 'Too many registrations from this address; try again later',
  accountDeactivated: 'This account is deactivated; ask an administrator',
  usernameTaken: 'The user name "{{username}}" is already taken',
  wrongCurrentPassword: 'The current password is incorrect',
  onlyOwnAccount: 'You may only change your own account',
  operatorAccountByOperator: 'Only a provider operator may change an operator account',
  ownGroup: 'You cannot change your own group',
  grantGroup1: 'Only a provider operator may grant group 1',
  operatorOrAdminByOperator: 'Only a provider operator may make someone an operator or administrator',
  deactivateSelf: 'You cannot deactivate your own account',
  nameBlank: 'A name cannot be blank',
  deleteSelf: 'You cannot delete your own account',
  deleteByManagers: 'Only administrators may delete accounts',
  userNotFound: 'User not found',
  readOwnData: 'You may only read your own data',
  listUsersByManagers: 'Only administrators may list users',
  readOwnAccount: 'You may only read your own account',
  readOwnRights: 'You may only read your own rights',
  grantRightsByManagers: 'Only administrators may grant rights',
  unknownLocations: 'Unknown location ids: {{ids}}',
  grantOnlyVisible: 'You may only grant locations you can see yourself',
  operatorsOnly: 'Only the provider’s operators (group 1) may do this',
  // Readings and periods.
  notCalendarDay: '{{field}} is not a calendar day: {{value}}',
  yearOutOfRange: '{{field}} must be between 1990 and 2200',
  fromAfterTill: 'dateFrom must not be after dateTill',
  periodTooLong: 'The period may be at most {{max}} days long',
  datesTogether: 'dateFrom and dateTill go together',
  unknownDeviceType: 'Unknown device type {{id}}',
  locationNotFound: 'Location not found',
  deviceNotFound: 'Device not found',
  flatNotFound: 'Flat not found',
  buildingNotFound: 'Building not found',
  heatSeasonEndsBeforeStart: 'A heating season period ends ({{to}}) before it starts ({{from}})',
  heatSeasonsOverlap: 'Heating season periods overlap ({{from}})',
  heatMethodFlatNotInBuilding: 'Flat {{flatId}} is not a flat of this building',
  heatMethodFlatTwice: 'Flat {{flatId}} is listed twice',
  monthNotEndedStatements: 'Month {{month}} has not ended yet: its statements cannot be published',
  emailRequiredForStatements: 'Add an e-mail address to your profile to be notified',
  // Master data and the audit log.
  notTimestamp: 'Not a timestamp: {{value}}',
  invalidTime: '{{field}} is not a valid time: {{value}}',
  timeInFuture: '{{field}} cannot be in the future',
  serialUsedAt: 'Serial number {{code}} is already used by a device at {{address}}',
  serialInUse: 'Serial number {{code}} is already in use',
  locationMissing: 'The location does not exist',
  buildingMeterOnBuilding: 'A building heat meter belongs to a building',
  deviceOnFlat: 'This device type belongs to a flat',
  roleOnBuilding: 'A device with this role belongs to a building',
  roleNotOfType: 'The role {{role}} is not one of device type {{id}}',
  serialBlank: 'The serial number cannot be blank',
  newSerialBlank: 'The new serial number cannot be blank',
  deviceAlreadyRemoved: 'The device was already removed on {{date}}',
  beforeInstalled: '{{field}} is before the device was installed ({{date}})',
  locationNameBlank: 'The name cannot be blank',
  locationNameTaken: 'There is already a location named "{{name}}" here',
  flatOrderOnlyFlat: 'Only a flat has an order',
  areaOnlyFlat: 'Only a flat has a floor area',
  clientOnlyFlat: 'Only a flat has a client',
  clientUnknown: 'There is no client with code "{{code}}"; give a name to create it',
  registerBodyMissing: 'Send the register file as the request body ({{types}})',
  // Occupancies (never a name or contact in a message: they are personal data).
  occupancyNotFound: 'Occupancy not found',
  occupancyOverlap: 'The period overlaps another occupancy of the flat ({{from}} – {{till}})',
  occupancyAfterMove: 'The flat already has an occupancy from {{day}}: change that one instead',
  moveOutBeforeMoveIn: 'The move-out day must be after the move-in day',
  moveValueNotFound: 'No moving-day value for this device and day',
  noManualMoveValue: 'No manual moving-day value for this device and day',
  // Data quality.
  anomalyNotFound: 'Anomaly not found',
  commentRequired: 'A comment is required',
  anomalyResolved: 'The anomaly is already resolved',
  anomalyAcknowledged: 'The anomaly is already acknowledged',
  monthsFromAfterTill: 'from must not be after till',
  monthNotEnded: 'The month has not ended yet',
  reasonRequired: 'A reason is required',
  noManualMonthEnd: 'No manual month-end value for this device and month',
  settingNotFound: 'No setting {{key}}',
  jobNotFound: 'No scheduled job {{name}}',
  settingNumber: '{{key}} must be a number from {{min}} to {{max}}',
  settingWholeNumber: '{{key}} must be a whole number from {{min}} to {{max}}',
  settingDaysPerType: '{{key}} must give each device type a whole number of days from {{min}} to {{max}}',
  settingYearsPerType:
    '{{key}} must give device types (by their number) a whole number of years from {{min}} to {{max}}',
  settingYearsPerModel: '{{key}} must give "default" and any model a whole number of years from {{min}} to {{max}}',
  settingBoolean: '{{key}} must be true or false',
  settingMonths: '{{key}} must be a list of months from 1 to 12',
  settingNumbers: '{{key}} must be a list of numbers',
  cityNotFound: 'City not found',
  degreeDaysInvalid: 'The file has {{count}} wrong lines; nothing was stored',
  degreeDaysEmpty: 'The file has no lines: send city;month;value per line',
  degreeDaysColumns: 'Line {{line}}: expected city;month;value',
  degreeDaysCity: 'Line {{line}}: there is no city "{{city}}"',
  degreeDaysCityAmbiguous: 'Line {{line}}: several cities are named "{{city}}"; give its number',
  degreeDaysMonth: 'Line {{line}}: "{{value}}" is not a month (YYYY-MM)',
  degreeDaysValue: 'Line {{line}}: "{{value}}" is not a number of degree-days from 0 to {{max}}',
  degreeDaysRepeated: 'Line {{line}}: {{city}} {{month}} is already on line {{first}}',
  // Collectors and ingest.
  collectorKeyMissing: 'Send a collector key: Authorization: Bearer <key> or X-Collector-Key',
  collectorKeyUnknown: 'Unknown or revoked collector key',
  collectorKeyNotFound: 'Collector key not found',
  collectorKeyNameTaken: 'There is already a collector key named "{{name}}"',
  // LoRaWAN (docs/lorawan.md): connections, their keys, the LNS endpoints, DevEUIs, mappings.
  lnsKeyMissing: 'Send the connection key: Authorization: Bearer <key> or X-Rodmenys-Key',
  lnsKeyUnknown: 'Unknown or deleted network-server connection key',
  lnsKindMismatch: 'This key belongs to a {{kind}} connection; post to its own endpoint',
  lnsConnectionNotFound: 'Network-server connection not found',
  lnsConnectionNameTaken: 'There is already a network-server connection named "{{name}}"',
  lnsBodyNotJson: 'The body is not JSON: {{reason}}',
  lnsBodyTooDeep: 'The body is nested more than {{max}} levels deep',
  lnsBodyNotProtobuf: 'The body is not a ChirpStack {{message}} Protobuf message: {{reason}}',
  lnsFieldInvalid: '{{field}} is invalid: {{reason}}',
  devEuiInvalid: '{{field}} must be 16 hex digits (a DevEUI)',
  devEuiTaken: 'DevEUI {{devEui}} is already the DevEUI of device {{deviceCode}}',
  devEuiBothGiven: 'Give either newDevEui or keepDevEui, not both',
  decoderUnknown: 'Unknown decoder "{{decoder}}"',
  lorawanMappingNotFound: 'Field mapping not found',
  lorawanMappingModelTaken: 'The model "{{model}}" already has a field mapping',
  lorawanDeviceNotFound: 'Device not found',
  // Collector fleet: meter keys, assignments.
  collectorLocationNotFound: 'Location {{id}} does not exist',
  collectorLocationLevel: 'Location {{id}} is not a building or a street',
  keyEncryptionMissing: 'Meter keys cannot be stored or read: KEY_ENCRYPTION_KEY is not set',
  malformedJson: 'Malformed JSON at line {{line}}, column {{column}} (character {{offset}}): {{reason}}',
  telegramTooLong: 'Telegram {{n}} is longer than {{max}} characters',
  lineTooLong: 'Line {{n}} is longer than {{max}} characters',
  telegramTooDeep: 'Telegram {{n}} is nested more than {{max}} levels deep',
  lineTooDeep: 'Line {{n}} is nested more than {{max}} levels deep',
  emptyIngestBody: 'The body is empty: send wmbusmeters JSON',
  tooManyTelegrams: 'At most {{max}} telegrams per request',
  telegramNotObject: 'Telegram {{n}} is not a JSON object',
  lineNotObject: 'Line {{n}} is not a JSON object',
  tooManyCsvLines: 'At most {{max}} lines per file',
  emailRequiredForDigest: 'Add an e-mail address to your profile first',
  // Integration keys, receivers and the billing export (docs/integration.md).
  integrationKeyUnknown: 'Unknown, expired or revoked integration key',
  integrationKeyNotAllowed: 'An integration key can only read the billing export, the readings and the statements',
  integrationKeyNotFound: 'Integration key not found',
  integrationKeysAdminsOnly: 'Only groups 1 and 2 manage integration keys',
  integrationKeyLocation: 'Location {{id}} does not exist or is outside your scope',
  integrationKeyExpiry: 'The last day must be from today to {{max}} days ahead',
  receiverUrl: 'The address must start with http:// or https://',
  receiverUrlCredentials: 'The address may not hold a user name or password: the receiver’s secret signs its notices',
  receiverUrlInternal:
    'The address points inside (loopback, private, link-local, multicast or reserved) and is not an allowed internal network',
  receiverUrlHttps: 'Use https://: plain http:// is only for the allowed internal networks',
  receiverEmail: 'Give an e-mail address',
  receiverNotFound: 'Receiver not found',
  // The occupant's access (docs/occupant-access.md): the same answer whatever was wrong.
  occupantSignInFailed: 'The link or the code is not valid (it may have been replaced or expired)',
  occupantTooManyAttempts: 'Too many attempts; try again later',
  occupantSignInFirst: 'Open your link or enter your code first',
  occupantSessionEnded: 'Your session has ended; open your link or enter your code again',
  occupantNotAllowed: "An occupant's session opens only the occupant's pages",
  occupantMonthNotFound: 'No statement of this month',
  occupantAccessAdminsOnly: "Only groups 1 and 2 manage occupants' access",
  billingVersionNotFound: 'No building of the selection has version {{version}} of {{month}}',
  billingSinceNotEarlier:
    'No building of the selection has a version {{since}} of {{month}} earlier than the one exported',
  // Delivery to occupants: the delivery log and the print list (docs/delivery.md).
  deliveriesAdminsOnly: 'Only groups 1 and 2 see the delivery log',
  printListEmpty: 'This building has no letter to print for {{month}}',
  // Devices over their lifetime (docs/device-lifetime.md).
  lifetimeAdminsOnly: 'Only groups 1 and 2 see the due lists and the remote-reading register',
  lifetimeNotBuilding: 'The location is not a building',
  // Exchange campaigns (docs/device-lifetime.md, "Exchange campaigns").
  campaignDeviceNotInService: 'Device {{id}} is not a device in service',
  campaignVisitWindow: 'The visit window must end after it starts',
  // Readings the occupant declares (docs/declared-readings.md).
  declarationWindowClosed: 'Readings for {{month}} can be declared from {{opens}} to {{closes}}',
  declarationBelowPrevious: '{{field}} is below the previous value {{previous}}',
  declarationNeedsConfirmation: '{{field}} is above the plausible maximum {{max}}: confirm it and add a photo',
  declarationDeviceNotDeclared: 'This device is not read by declaration',
  photoNotImage: 'The photo must be a JPEG or PNG image',
  photoTooLarge: 'The photo is larger than {{max}} MB',
  photoTooManyPixels: 'The photo has more than {{max}} million pixels',
  // The back office's side of declared readings (docs/declared-readings.md).
  declarationsAdminsOnly: 'Only groups 1 and 2 enter and review declarations',
  declarationDayInFuture: '{{field}} is in the future',
  declarationNoOccupant: 'Nobody lived in the flat on {{day}}',
  declarationReasonRequired: '{{field}} is required to reject a declaration',
  declarationNotFound: 'Declaration not found',
  declarationPrintListEmpty: 'No flat of the selection needs a reminder by post',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/**
 * Every status an error answer can have (the README lists them): 400 bad input, 401 not signed in,
 * 403 not allowed, 404 not found (or not yours), 408 the request too slow, 409 a conflict, 413 a body too
 * large, 414 a path parameter too long, 415 a content type not accepted, 416 a range outside a file of the
 * web app, 429 too many requests, 431 headers too large, 500 the server's fault, 503 the database away.
 */
export const ERROR_STATUSES: readonly number[] = [400, 401, 403, 404, 408, 409, 413, 414, 415, 416, 429, 431, 500, 503];
/** Values for a message's placeholders. */
export type ErrorParams = Record<string, string>;

/** The English text of `code` with its placeholders filled in (a missing one stays as `{{name}}`). */
export function errorText(code: ErrorCode, params: ErrorParams = {}): string {
  return ERROR_MESSAGES[code].replace(/{{(\w+)}}/g, (whole, name: string) => params[name] ?? whole);
}

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_MESSAGES, code);
