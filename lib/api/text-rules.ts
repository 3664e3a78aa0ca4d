import type { FieldError } from "./errors";

// Text a client may send, checked once for every body (JSON and form, keys included) and query string before
// any schema or database sees it: at most MAX_DEPTH levels of nesting, no NUL (PostgreSQL text cannot store U+0000) and only well-formed Unicode (a
// lone UTF-16 surrogate such as "\ud800" cannot be encoded as UTF-8). Each offending string is named by its
// path, e.g. `address.street` or `items.2`.

const NUL = "\u0000";

function problem(value: string): string | null {
  if (value.includes(NUL)) return "Must not contain NUL characters (U+0000)";
  if (!value.isWellFormed()) return "Must be well-formed Unicode (no lone UTF-16 surrogates)";
  return null;
}

const MAX_ERRORS = 20;
/** No request of this API nests deeper than a few levels; 32 bounds the walk (and every later one). */
export const MAX_DEPTH = 32;

/** Field errors for every ill-formed string in `value` (keys and values), walking arrays and objects. */
export function textErrors(value: unknown, location: FieldError["in"], path = ""): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (node: unknown, at: string, depth = 0): void => {
    if (errors.length >= MAX_ERRORS) return;
    if (depth > MAX_DEPTH) {
      errors.push({ param: at || "(root)", in: location, message: `Nested deeper than ${MAX_DEPTH} levels` });
      return;
    }
    if (typeof node === "string") {
      const message = problem(node);
      if (message) errors.push({ param: at || "(root)", in: location, message });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, at ? `${at}.${i}` : String(i), depth + 1));
      return;
    }
    if (node && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        const keyMessage = problem(key);
        const name = keyMessage ? JSON.stringify(key).slice(1, -1).replaceAll("\\u0000", "\\0") : key;
        if (keyMessage) errors.push({ param: at ? `${at}.${name}` : name, in: location, message: `Field name: ${keyMessage}` });
        visit(child, at ? `${at}.${name}` : name, depth + 1);
      }
    }
  };
  visit(value, path);
  return errors;
}
