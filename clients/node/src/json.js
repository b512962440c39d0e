// Converts between proto3 JSON (what grpcurl, the conformance vectors and
// this client's callers use) and the snake_case objects that
// @grpc/proto-loader serialises with keepCase: true.
//
// We keep the proto's own field names inside and convert at the edge because
// protobufjs' camelCase differs from protoc's JSON names for fields with
// digits (runs_13_to_1 is "runs13To1" in proto3 JSON, protobufjs would say
// "runs_13To_1").

import protobuf from 'protobufjs';

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const FLOAT_TYPES = new Set(['float', 'double']);
const NUMBER_TYPES = new Set([
  'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'float', 'double',
]);

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
  if (t === 'bytes') {
    if (typeof value !== 'string') throw new JsonShapeError(where, 'expected base64 text');
    return value;
  }
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
  if (resolved instanceof protobuf.Type) {
    return toJson(resolved, /** @type {Record<string, unknown>} */ (value), options);
  }
  if (FLOAT_TYPES.has(field.type) && typeof value === 'number' && !Number.isFinite(value)) {
    return String(value); // proto3 JSON spells these "NaN", "Infinity", "-Infinity"
  }
  if (LONG_TYPES.has(field.type)) return String(value);
  return value;
}
