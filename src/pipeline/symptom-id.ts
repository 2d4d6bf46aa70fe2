/**
 * The id of a symptom (a severe message of `meta.summary`): `m` and the 8 hex digits of its
 * message's key (`messageKey`), so the same message has the same id in every run, and
 * `read_result {template}` can find its lines by keying each stored line again. Its own module,
 * with no imports: the tool's schema states the form without loading the message code.
 */

/** A symptom's id, as `meta.summary` gives it and `read_result {template}` takes it: `m` and 8 hex digits. */
export const SYMPTOM_ID = /^m[0-9a-f]{8}$/;

/**
 * @example
 * symptomId(0x3f2a9c01); // "m3f2a9c01"
 */
export function symptomId(key: number): string {
  return `m${(key >>> 0).toString(16).padStart(8, "0")}`;
}

/** The key a symptom id names (undefined for a string that is not one). */
export function symptomKey(id: string): number | undefined {
  return SYMPTOM_ID.test(id) ? Number.parseInt(id.slice(1), 16) : undefined;
}
