/**
 * Characters of base64url and hex tokens (and with `base64`, of standard base64: `+ / =`, for a
 * value that already holds them; a user name before `/src` is not base64).
 */
export function isTokenChar(c: number, base64: boolean): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    (base64 && (c === 43 || c === 47 || c === 61))
  );
}
