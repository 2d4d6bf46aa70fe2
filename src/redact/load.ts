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
  return {
    load() {
      loading ??= import("./compile.js").then((m) => {
        loaded = m.compileRedactor(options);
        return loaded;
      });
      return loading;
    },
    get loaded() {
      return loaded;
    },
  };
}
