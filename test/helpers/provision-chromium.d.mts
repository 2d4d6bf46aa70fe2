/** Types of `provision-chromium.mjs`, for the tests that import it. */
export declare const DEFAULT_CHROMIUM: string;

export interface Facts {
  readonly path: string;
  readonly exists: boolean;
  readonly custom: boolean;
  readonly root: boolean;
  readonly apt: boolean;
}

export type Decision =
  | { readonly action: "ok" }
  | { readonly action: "install" }
  | { readonly action: "fail"; readonly line: string };

export declare function decide(facts: Facts): Decision;
export declare function facts(env?: Record<string, string | undefined>): Facts;
