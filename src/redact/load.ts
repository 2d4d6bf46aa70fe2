/**
 * The redactor on first use: options are checked when they are compiled, and the rule set (most
 * of the redaction code, and a third of the package) loads when the first result is shaped, not
 * when the package is imported. `import { redact }` stays synchronous and loads it up front.
 */
import type { CompiledRedactor } from "./compile.js";
import { checkRedactOptions, type RedactOptions } from "./options.js";

export type LoadedRedactor = CompiledRedactor;

export interface RedactorLoader {
  /** Compiles the rule set once; later calls share the first. */
  load(): Promise<LoadedRedactor>;
  /** What `load()` gave, once it has resolved. */
  readonly loaded: LoadedRedactor | undefined;
}

/**
 * @example
 * const loader = redactorLoader({ disable: ["jwt"] }); // checks the options now
 * const { redactor } = await loader.load(); // the rules load here, once
 */
export function redactorLoader(options: RedactOptions): RedactorLoader {
  checkRedactOptions(options);
  let loading: Promise<LoadedRedactor> | undefined;
  let loaded: LoadedRedactor | undefined;
  const own = Object.keys(options).length > 0;
  return {
    load() {
      loading ??= (own ? compile(options) : builtIn()).then((compiled) => {
        loaded = compiled;
        return loaded;
      });
      return loading;
    },
    get loaded() {
      return loaded;
    },
  };
}

function compile(options: RedactOptions): Promise<LoadedRedactor> {
  return import("./on-demand.js").then((m) => m.compileRedactor(options));
}

/**
 * The built-in rule set, compiled once for every call that does not change it: a `shape()`
 * without a shaper compiles its options each time, and the rules were a quarter of a 1 KB
 * call. What is shared depends only on the code (its patterns are used synchronously, so no
 * call sees another's `lastIndex`); a failed load is tried again.
 */
let builtInRules: Promise<LoadedRedactor> | undefined;
function builtIn(): Promise<LoadedRedactor> {
  builtInRules ??= compile({});
  builtInRules.catch(() => {
    builtInRules = undefined;
  });
  return builtInRules;
}
