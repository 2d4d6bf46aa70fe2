/**
 * The part of papaparse's API that `structured/csv.ts` uses. Declared here instead of using
 * `@types/papaparse`, which references Node's types and would let `process` and `Buffer`
 * type-check anywhere in `src/`.
 */
declare module "papaparse" {
  // The type parameter mirrors @types/papaparse (the row type of step callbacks, unused here).
  export interface ParseConfig<_T = unknown> {
    delimiter?: string;
    newline?: string;
    quoteChar?: string;
    escapeChar?: string;
    header?: false;
    skipEmptyLines?: boolean | "greedy";
  }
  export interface ParseError {
    type: string;
    code: string;
    message: string;
    row?: number;
  }
  export interface ParseResult<T> {
    data: T[];
    errors: ParseError[];
  }
  const Papa: {
    parse<T>(input: string, config?: ParseConfig): ParseResult<T>;
  };
  export default Papa;
}
