/**
 * Decoding LoRaWAN payloads in the product (docs/lorawan.md, "Decoding"): pure functions, no
 * database. decodeUplink for the built-in decoders, applyFieldMapping for an LNS's decoded
 * object, parseRecords for M-Bus records on their own.
 */

export {
  BUILT_IN_DECODERS,
  type BuiltInDecoder,
  type DecoderId,
  decodeUplink,
  isDecoderId,
  MAX_PAYLOAD_BYTES,
  type Uplink,
} from './decoders.js';
export {
  applyFieldMapping,
  type FieldMapping,
  MAPPING_UNITS,
  type MappingUnit,
  mappingProblem,
} from './field-mapping.js';
export { MAX_RECORDS, type MbusError, type MbusRecord, type MbusRecords, parseRecords } from './mbus/records.js';
export { namedValues, recordName } from './mbus/values.js';
export {
  type Decoded,
  type DecodeResult,
  type HistoryEntry,
  PROBLEM_REASONS,
  type Problem,
  type ProblemReason,
  type Register,
  type RegisterUnit,
  UNDECODED_REASONS,
  type Undecoded,
  type UndecodedReason,
} from './types.js';
