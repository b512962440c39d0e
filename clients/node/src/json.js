// Converts between proto3 JSON (what grpcurl, the conformance vectors and
// this client's callers use) and the snake_case objects that
// @grpc/proto-loader serialises with keepCase: true.
//
// We keep the proto's own field names inside and convert at the edge because
// protobufjs' camelCase differs from protoc's JSON names for fields with
// digits (runs_13_to_1 is "runs13To1" in proto3 JSON, protobufjs would say
// "runs_13To_1").
//
// google.protobuf.Timestamp has its own proto3 JSON form, an RFC 3339 string
// ("2026-12-01T18:00:00Z"); protobufjs knows only the {seconds, nanos}
// message, so both directions convert it here.

import protobuf from 'protobufjs';

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const FLOAT_TYPES = new Set(['float', 'double']);
const NUMBER_TYPES = new Set([
  'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'float', 'double',
]);

/** The full name protobufjs gives the well-known Timestamp type. */
const TIMESTAMP = '.google.protobuf.Timestamp';

// proto3 JSON limits a Timestamp to years 0001-9999 (four-digit years).
const MIN_SECONDS = -62_135_596_800; // 0001-01-01T00:00:00Z
const MAX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

// RFC 3339 date-time as proto3 JSON parsers take it: upper-case T and Z, at
// most nine fractional digits, Z or a numeric offset.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether a type is google.protobuf.Timestamp, which proto3 JSON writes as
 * an RFC 3339 string rather than an object.
 * @param {unknown} type
 * @returns {type is protobuf.Type}
 */
export function isTimestampType(type) {
  return type instanceof protobuf.Type && type.fullName === TIMESTAMP;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's
 * days_from_civil): exact integer arithmetic for every year 1-9999, where
 * Date.UTC would read years 0-99 as 1900-1999.
 * @param {number} y @param {number} m 1-12 @param {number} d 1-31
 */
function daysFromCivil(y, m, d) {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * The date of a day count from 1970-01-01 (Hinnant's civil_from_days).
 * @param {number} z
 * @returns {[number, number, number]} year, month 1-12, day 1-31
 */
function civilFromDays(z) {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** @param {number} y @param {number} m */
function daysInMonth(y, m) {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/**
 * An RFC 3339 string -> the instant as whole seconds since the Unix epoch
 * and nanoseconds (0-999999999), as google.protobuf.Timestamp holds it.
 * @param {unknown} value
 * @param {string} where the field, for the error
 * @returns {{seconds: number, nanos: number}}
 */
export function parseTimestamp(value, where) {
  const example = 'e.g. "2026-12-01T18:00:00Z" or "2026-12-01T21:00:00.250+03:00"';
  if (typeof value !== 'string') {
    throw new JsonShapeError(where, `expected an RFC 3339 timestamp string (${example}), got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const m = RFC3339.exec(value);
  const bad = (/** @type {string} */ why) => new JsonShapeError(where, `not an RFC 3339 timestamp (${why}): ${JSON.stringify(value)}; ${example}`);
  if (!m) throw bad('expected YYYY-MM-DDThh:mm:ss, 0-9 fractional digits, then Z or ±hh:mm');
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (year < 1) throw bad('year 0000');
  if (month < 1 || month > 12) throw bad('month out of range');
  if (day < 1 || day > daysInMonth(year, month)) throw bad('day out of range for the month');
  if (hour > 23) throw bad('hour out of range');
  if (minute > 59) throw bad('minute out of range');
  // Timestamp has no leap seconds (its seconds are smeared), so :60 is refused.
  if (second > 59) throw bad('second out of range');
  let offsetSeconds = 0;
  if (m[8] !== 'Z') {
    const offHours = Number(m[8].slice(1, 3));
    const offMinutes = Number(m[8].slice(4, 6));
    if (offHours > 23 || offMinutes > 59) throw bad('offset out of range');
    offsetSeconds = (m[8][0] === '-' ? -1 : 1) * (offHours * 3600 + offMinutes * 60);
  }
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw bad('outside 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z');
  }
  const nanos = m[7] === undefined ? 0 : Number(m[7].padEnd(9, '0'));
  return { seconds, nanos };
}

/**
 * A Timestamp ({seconds, nanos}, seconds a number, decimal string or Long,
 * either absent meaning 0) -> its proto3 JSON string: UTC with "Z", and 0, 3,
 * 6 or 9 fractional digits, the fewest that hold the nanos, as protobuf's
 * JSON printers write it.
 * @param {unknown} value
 * @param {string} [where] the field, for the error
 * @returns {string}
 */
export function formatTimestamp(value, where = 'google.protobuf.Timestamp') {
  const obj = /** @type {{seconds?: unknown, nanos?: unknown}} */ (value ?? {});
  const seconds = Number(String(obj.seconds ?? 0));
  const nanos = Number(obj.nanos ?? 0);
  if (!Number.isSafeInteger(seconds) || seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw new RangeError(`${where}: Timestamp seconds ${String(obj.seconds)} outside years 0001-9999`);
  }
  if (!Number.isInteger(nanos) || nanos < 0 || nanos > 999_999_999) {
    throw new RangeError(`${where}: Timestamp nanos ${String(obj.nanos)} outside 0-999999999`);
  }
  const days = Math.floor(seconds / 86400);
  const secOfDay = seconds - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  const pad = (/** @type {number} */ n, /** @type {number} */ w) => String(n).padStart(w, '0');
  let text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(Math.floor(secOfDay / 3600), 2)}:` +
    `${pad(Math.floor((secOfDay % 3600) / 60), 2)}:${pad(secOfDay % 60, 2)}`;
  if (nanos !== 0) {
    const digits = pad(nanos, 9);
    if (nanos % 1_000_000 === 0) text += `.${digits.slice(0, 3)}`;
    else if (nanos % 1000 === 0) text += `.${digits.slice(0, 6)}`;
    else text += `.${digits}`;
  }
  return `${text}Z`;
}

/**
 * The proto3 JSON name of a field: protoc's rule (drop each underscore and
 * upper-case the character after it), unless the proto sets json_name.
 * @param {protobuf.Field} field
 * @returns {string}
 */
export function jsonName(field) {
  const explicit = field.options && field.options.json_name;
  if (typeof explicit === 'string') return explicit;
  let out = '';
  let upperNext = false;
  for (const ch of field.name) {
    if (ch === '_') {
      upperNext = true;
    } else if (upperNext) {
      out += ch.toUpperCase();
      upperNext = false;
    } else {
      out += ch;
    }
  }
  return out;
}

/** Raised when a JSON request does not fit the message type. */
export class JsonShapeError extends TypeError {
  /**
   * @param {string} path where in the request
   * @param {string} message what is wrong
   */
  constructor(path, message) {
    super(`${path}: ${message}`);
    this.name = 'JsonShapeError';
    this.path = path;
  }
}

/**
 * Finds the field a JSON key names: its JSON name or its proto name, as the
 * proto3 JSON parsers of every language accept both.
 * @param {protobuf.Type} type
 * @param {string} key
 * @returns {protobuf.Field | undefined}
 */
function fieldForKey(type, key) {
  if (Object.hasOwn(type.fields, key)) return type.fields[key];
  return type.fieldsArray.find((f) => jsonName(f) === key);
}

/**
 * The oneof a field is a member of, unless that oneof is the synthetic one
 * protobufjs makes for a proto3 `optional` field (a single member, so it
 * cannot clash and is not part of the message's JSON contract).
 * @param {protobuf.Field} field
 * @returns {protobuf.OneOf | null}
 */
export function realOneof(field) {
  const oneof = field.partOf;
  if (!oneof || (field.options && field.options.proto3_optional)) return null;
  return oneof;
}

/**
 * Whether a field tracks presence (oneof member, proto3 `optional`, singular
 * message): such a field is emitted only when set. Lists and maps never do,
 * not even lists of messages: unset they are empty.
 * @param {protobuf.Field} field
 */
function hasPresence(field) {
  if (field.repeated || field.map) return false;
  return Boolean(field.partOf) || field.resolvedType instanceof protobuf.Type;
}

/**
 * proto3 JSON -> an object for Type.fromObject (proto field names).
 * @param {protobuf.Type} type
 * @param {unknown} json
 * @param {string} [path]
 * @returns {Record<string, unknown>}
 */
export function fromJson(type, json, path = type.name) {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new JsonShapeError(path, `expected a JSON object for ${type.fullName.slice(1)}`);
  }
  /** @type {Record<string, unknown>} */
  const out = {};
  /** @type {Map<protobuf.Field, string>} the key each field was given under */
  const given = new Map();
  /** @type {Map<protobuf.OneOf, string>} the key that set each oneof */
  const chosen = new Map();
  for (const [key, value] of Object.entries(json)) {
    const field = fieldForKey(type, key);
    if (!field) throw new JsonShapeError(path, `unknown field "${key}"`);
    // JSON null means "not set"; undefined is JavaScript's way of saying the same.
    if (value === null || value === undefined) continue;
    // A field given under both its names, or two members of one oneof, is
    // refused as every proto3 JSON parser refuses it, rather than letting
    // the key that happens to come last win silently.
    const twice = given.get(field);
    if (twice !== undefined) {
      throw new JsonShapeError(path, `field "${field.name}" is given twice, as "${twice}" and "${key}"`);
    }
    given.set(field, key);
    const oneof = realOneof(field);
    if (oneof) {
      const other = chosen.get(oneof);
      if (other !== undefined) {
        const members = oneof.fieldsArray.map((f) => `"${jsonName(f)}"`).join(', ');
        throw new JsonShapeError(
          path,
          `"${other}" and "${key}" are both members of oneof ${oneof.name}; give only one of ${members}`,
        );
      }
      chosen.set(oneof, key);
    }
    const where = `${path}.${key}`;
    if (field.map) {
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new JsonShapeError(where, 'expected a JSON object for a map');
      }
      out[field.name] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, valueFromJson(field, v, `${where}.${k}`)]),
      );
    } else if (field.repeated) {
      if (!Array.isArray(value)) throw new JsonShapeError(where, 'expected a JSON array');
      out[field.name] = value.map((v, i) => valueFromJson(field, v, `${where}[${i}]`));
    } else {
      out[field.name] = valueFromJson(field, value, where);
    }
  }
  return out;
}

/**
 * One scalar, enum or message value from JSON.
 * @param {protobuf.Field} field
 * @param {unknown} value
 * @param {string} where
 * @returns {unknown}
 */
function valueFromJson(field, value, where) {
  const resolved = field.resolvedType;
  if (isTimestampType(resolved)) {
    const { seconds, nanos } = parseTimestamp(value, where);
    // The form proto-loader's serializer takes: 64-bit seconds as a string.
    return { seconds: String(seconds), nanos };
  }
  if (resolved instanceof protobuf.Type) return fromJson(resolved, value, where);
  if (resolved instanceof protobuf.Enum) {
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && Object.hasOwn(resolved.values, value)) return value;
    throw new JsonShapeError(where, `not a value of enum ${resolved.fullName.slice(1)}: ${JSON.stringify(value)}`);
  }
  const t = field.type;
  if (t === 'bool') {
    if (typeof value !== 'boolean') throw new JsonShapeError(where, 'expected true or false');
    return value;
  }
  if (t === 'string') {
    if (typeof value !== 'string') throw new JsonShapeError(where, 'expected a string');
    return value;
  }
  if (t === 'bytes') return bytesFromJson(value, where);
  if (LONG_TYPES.has(t)) {
    if (typeof value === 'number' && Number.isInteger(value)) return String(value);
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return value;
    throw new JsonShapeError(where, 'expected an integer (number or decimal string)');
  }
  if (NUMBER_TYPES.has(t)) {
    if (typeof value === 'number') return value;
    if (FLOAT_TYPES.has(t) && ['NaN', 'Infinity', '-Infinity'].includes(/** @type {string} */ (value))) {
      return Number(value);
    }
    if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
      return Number(value);
    }
    throw new JsonShapeError(where, 'expected a number');
  }
  throw new JsonShapeError(where, `unsupported field type ${t}`);
}

// Base64 as proto3 JSON parsers take it: the standard or the URL-safe
// alphabet, padding optional.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64_URL = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$/;

/**
 * A bytes value of a request: base64 text (proto3 JSON), or the bytes
 * themselves as a Buffer or Uint8Array (a sealed state as a helper handed it
 * out). Returned as standard base64, the form proto-loader serialises; text
 * that is not base64 is refused rather than decoded into other bytes.
 * @param {unknown} value
 * @param {string} where
 * @returns {string}
 */
export function bytesFromJson(value, where) {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (typeof value !== 'string') {
    throw new JsonShapeError(where, 'expected base64 text, a Buffer or a Uint8Array');
  }
  if (BASE64.test(value)) return value;
  if (BASE64_URL.test(value)) return Buffer.from(value, 'base64url').toString('base64');
  throw new JsonShapeError(where, 'not base64 text (standard or URL-safe alphabet)');
}

/**
 * The default proto3 JSON value of a field with implicit presence.
 * @param {protobuf.Field} field
 * @returns {unknown}
 */
function defaultJson(field) {
  if (field.map) return {};
  if (field.repeated) return [];
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return resolved.valuesById[0] ?? 0;
  if (field.type === 'bool') return false;
  if (field.type === 'string' || field.type === 'bytes') return '';
  if (LONG_TYPES.has(field.type)) return '0';
  return 0;
}

/**
 * A decoded message (proto-loader's toObject with keepCase, enums and longs
 * as String, bytes as base64) -> proto3 JSON. With `emitDefaults`, fields
 * without presence appear with their default value, so `response.winning`
 * is `false` rather than missing; unset messages, optionals and oneof
 * members stay absent, and a oneof member that is set appears even at its
 * default value (it is the oneof's choice).
 * @param {protobuf.Type} type
 * @param {Record<string, unknown>} obj
 * @param {{emitDefaults?: boolean}} [options]
 * @returns {Record<string, unknown>}
 */
export function toJson(type, obj, options = {}) {
  const emitDefaults = options.emitDefaults ?? true;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const field of type.fieldsArray) {
    const key = jsonName(field);
    const value = obj[field.name];
    if (value === undefined || value === null) {
      if (emitDefaults && !hasPresence(field)) out[key] = defaultJson(field);
      continue;
    }
    if (field.map) {
      out[key] = Object.fromEntries(
        Object.entries(/** @type {object} */ (value)).map(([k, v]) => [k, valueToJson(field, v, options)]),
      );
    } else if (field.repeated) {
      out[key] = /** @type {unknown[]} */ (value).map((v) => valueToJson(field, v, options));
    } else {
      out[key] = valueToJson(field, value, options);
    }
  }
  return out;
}

/**
 * @param {protobuf.Field} field
 * @param {unknown} value
 * @param {{emitDefaults?: boolean}} options
 * @returns {unknown}
 */
function valueToJson(field, value, options) {
  const resolved = field.resolvedType;
  if (isTimestampType(resolved)) return formatTimestamp(value, field.fullName.slice(1));
  if (resolved instanceof protobuf.Type) {
    return toJson(resolved, /** @type {Record<string, unknown>} */ (value), options);
  }
  if (FLOAT_TYPES.has(field.type) && typeof value === 'number' && !Number.isFinite(value)) {
    return String(value); // proto3 JSON spells these "NaN", "Infinity", "-Infinity"
  }
  if (LONG_TYPES.has(field.type)) return String(value);
  return value;
}
