/**
 * A device's lifetime dates as SQL over `device d`, its `location l` and `device_status ds`
 * (docs/device-lifetime.md): the rules themselves are the SQL functions of migration 230
 * (verification_due, battery_end, read_method_now), read from the settings, so the device forms,
 * the due lists and the register compute them the same way.
 */

/** The day the verification interval starts from: the verification (or manufacture) day, else the installation day. */
export const verifiedFromSql = (d: string) => `coalesce(${d}.verified_on, ${d}.installed_at::date)`;

/** The verification due date (date or null). */
export const verificationDueSql = (d: string, l: string) =>
  `verification_due(${d}.device_type_id, ${l}.level, ${verifiedFromSql(d)})`;

/** An allocator's battery end (date or null). */
export const batteryEndSql = (d: string) => `battery_end(${d}.device_type_id, ${d}.model, ${d}.installed_at::date)`;

/**
 * How the device is read now: 'remote', 'walkby' or 'manual'. A collector heard it at its latest
 * telegram or at the newest reading of a collector's file, whichever is later.
 */
export const readNowSql = (d: string, ds: string) =>
  `read_method_now(${d}.read_method, greatest(${ds}.telegram_ts, ${ds}.file_ts))`;

/** Whether the battery end `b` comes before the verification due date `v` (SQL dates, either null). */
const batteryFirst = (v: string, b: string) => `${b} IS NOT NULL AND (${v} IS NULL OR ${b} < ${v})`;

/** A device's due date: the earlier of its verification due date `v` and battery end `b` (null when neither). */
export const dueDateSql = (v: string, b: string) => `CASE WHEN ${batteryFirst(v, b)} THEN ${b} ELSE ${v} END`;

/** Why it is due on that date: 'battery' or 'verification'. */
export const dueReasonSql = (v: string, b: string) =>
  `CASE WHEN ${batteryFirst(v, b)} THEN 'battery' ELSE 'verification' END`;

/** The lifetime fields of the contract's MasterDevice. */
export const LIFETIME_COLUMNS = `to_char(d.verified_on, 'YYYY-MM-DD') AS "VerifiedOn", d.read_method AS "ReadMethod",
  ${readNowSql('d', 'ds')} AS "ReadNow",
  to_char(${verificationDueSql('d', 'l')}, 'YYYY-MM-DD') AS "VerificationDue",
  to_char(${batteryEndSql('d')}, 'YYYY-MM-DD') AS "BatteryEnd",
  d.role AS "Role"`;
