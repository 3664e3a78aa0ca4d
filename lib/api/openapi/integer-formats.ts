// Every `integer` in the document gets a `format`. Generators (openapi-generator and others) map a bare `integer` to a
// 32-bit int in Java, C# and Go, and money here is integer centavos that passes 2^31 (R$ 21,474,836.47): an
// assignment's face value, a contract's balance. So an integer is `int32` only when its own bounds keep it within
// 32 bits (a page `limit`, a `term`), and `int64` otherwise.

type Json = Record<string, unknown>;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function isInteger(schema: Json): boolean {
  return schema.type === "integer" || (Array.isArray(schema.type) && schema.type.includes("integer"));
}

/** The smallest and largest integers the schema allows, as far as its own keywords say (undefined: unbounded). */
function bounds(schema: Json): { min?: number; max?: number } {
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  const mins = [num(schema.minimum), exclusiveMin === undefined ? undefined : Math.floor(exclusiveMin) + 1].filter((v) => v !== undefined);
  const maxs = [num(schema.maximum), exclusiveMax === undefined ? undefined : Math.ceil(exclusiveMax) - 1].filter((v) => v !== undefined);
  return { min: mins.length ? Math.max(...mins) : undefined, max: maxs.length ? Math.min(...maxs) : undefined };
}

/** The format an integer schema declares or should: int32 when bounded within 32 bits, else int64. */
export function integerFormat(schema: Json): "int32" | "int64" {
  const { min, max } = bounds(schema);
  return min !== undefined && max !== undefined && min >= INT32_MIN && max <= INT32_MAX ? "int32" : "int64";
}

const SUBSCHEMA = ["items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "not", "if", "then", "else", "contains", "propertyNames", "contentSchema"];
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** A JSON Schema and everything nested in it (not `example`, `examples`, `default`, `const` or `enum`: data). */
function schema(node: unknown): void {
  if (!isObject(node)) return;
  if (isInteger(node) && node.format === undefined) node.format = integerFormat(node);
  for (const key of SUBSCHEMA) schema(node[key]);
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(node[key])) for (const s of node[key]) schema(s);
  for (const key of SUBSCHEMA_MAPS) if (isObject(node[key])) for (const s of Object.values(node[key])) schema(s);
}

const values = (node: unknown): unknown[] => (isObject(node) ? Object.values(node) : []);

/** A media-type map (`content`): each media type's schema. */
function content(node: unknown): void {
  for (const media of values(node)) if (isObject(media)) schema(media.schema);
}

/** A parameter or a header: its schema, or its `content`. */
function parameter(node: unknown): void {
  if (!isObject(node)) return;
  schema(node.schema);
  content(node.content);
}

function response(node: unknown): void {
  if (!isObject(node)) return;
  for (const header of values(node.headers)) parameter(header);
  content(node.content);
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function pathItem(node: unknown): void {
  if (!isObject(node)) return;
  if (Array.isArray(node.parameters)) for (const p of node.parameters) parameter(p);
  for (const method of METHODS) {
    const op = node[method];
    if (!isObject(op)) continue;
    if (Array.isArray(op.parameters)) for (const p of op.parameters) parameter(p);
    if (isObject(op.requestBody)) content(op.requestBody.content);
    for (const r of values(op.responses)) response(r);
    for (const callback of values(op.callbacks)) for (const item of values(callback)) pathItem(item);
  }
}

/** Adds `format` to every integer schema without one, in place: components, paths and webhooks (parameters,
 *  headers, request and response bodies). Returns the document. */
export function addIntegerFormats<T extends Json>(doc: T): T {
  const components = isObject(doc.components) ? doc.components : {};
  for (const s of values(components.schemas)) schema(s);
  for (const p of values(components.parameters)) parameter(p);
  for (const h of values(components.headers)) parameter(h);
  for (const b of values(components.requestBodies)) if (isObject(b)) content(b.content);
  for (const r of values(components.responses)) response(r);
  for (const item of values(components.pathItems)) pathItem(item);
  for (const item of values(doc.paths)) pathItem(item);
  for (const item of values(doc.webhooks)) pathItem(item);
  return doc;
}
