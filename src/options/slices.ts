/**
 * Each stage's own slice of the compiled options: no stage sees `CompiledOptions`. Sizes follow
 * the budget, so memory is O(budget), never O(input).
 */
import type { ContractStageOptions } from "../contract/stage.js";
import type { DecodeOptions } from "../decode/stage.js";
import type { PresentOptions } from "../fence/present.js";
import type { IntakeOptions } from "../intake/route.js";
import type { KeepOptions } from "../keep/stage.js";
import type { MetaOptions } from "../pipeline/meta.js";
import { fingerprintOf, importFingerprintKey } from "../redact/fingerprint.js";
import type { RedactStageOptions } from "../redact/stage.js";
import type { RenderOptions } from "../render/stage.js";
import type { StoreStageOptions } from "../store/stage.js";
import type { CompiledOptions } from "./compile.js";

/** Fingerprints listed in `meta.redactions`, at most. */
export const MAX_FINGERPRINTS = 64;

export interface Slices {
  readonly intake: Omit<IntakeOptions, "describe">;
  readonly decode: DecodeOptions;
  readonly contract: ContractStageOptions;
  readonly redact: RedactStageOptions;
  readonly keep: Omit<KeepOptions, "tap">;
  readonly store: StoreStageOptions;
  readonly render: Omit<RenderOptions, "records"> & {
    readonly records: Omit<RenderOptions["records"], "clean" | "cursor">;
  };
  /** Spotlighting and the fence (its form follows the budget); the redact stage adds its pass. */
  readonly present: Omit<PresentOptions, "form" | "redact">;
}

/**
 * @example
 * const { decode, keep } = sliceOptions(compileOptions({ maxTokens: 2000 }));
 */
export function sliceOptions(o: CompiledOptions): Slices {
  const capacity = o.capacity;
  const lineCap = Math.min(16384, Math.max(256, o.maxTokens * 2));
  return {
    present: {
      spotlight: o.spotlight,
      datamark: o.datamark,
      untrusted: o.untrusted,
      tool: o.tool,
    },
    intake: { maxBytes: o.maxBytes, contentType: o.contentType, format: o.format },
    decode: {
      lineCap,
      hashLimit: o.hashLimit,
      records: {
        limits: o.limits,
        hashLimit: o.hashLimit,
        // A sniffed input is held this long so it can still be read again as text.
        window: Math.max(256 << 10, capacity * 8),
        maxBytes: o.maxBytes,
        ...(o.recordPaths !== undefined ? { paths: o.recordPaths } : {}),
      },
    },
    contract: { contract: o.contract, projection: o.projection },
    redact: {
      redactor: o.redactor,
      toolError: o.toolError,
      invisible: o.invisible,
      hashLimit: o.hashLimit,
      keepValues: o.fingerprintKey !== undefined ? MAX_FINGERPRINTS : 0,
      // Lines the decoder will cut are redacted whole before it does.
      lineCap,
    },
    keep: {
      // Logs run about 3 characters a token: a few budgets' worth of lines to choose from.
      lines: {
        headChars: Math.floor(capacity * 0.25),
        tailChars: Math.floor(capacity * 0.35),
        evidenceChars: Math.floor(capacity * 0.4),
        headLines: Math.ceil(o.maxTokens * 0.5),
        tailLines: Math.ceil(o.maxTokens * 0.7),
      },
      records: {
        chars: capacity,
        sort: o.sort,
        errorsFirst: o.errorsFirst,
        maxStringChars: o.maxStringChars,
      },
    },
    store: {
      store: o.store,
      maxChars: o.storeMaxChars,
      lineCap,
      info: {
        ...(o.tool !== undefined ? { tool: o.tool } : {}),
        ...(o.sort ? { sort: o.sort.text } : {}),
        ...(o.projection ? { projection: o.projection.spec } : {}),
        errorsFirst: o.errorsFirst,
      },
    },
    render: {
      maxTokens: o.maxTokens,
      toolError: o.toolError,
      maxBytes: o.maxBytes,
      next: o.next,
      capacity,
      records: {
        mode: o.envelope,
        maxTokens: o.maxTokens,
        maxBytes: o.maxBytes,
        maxStringChars: o.maxStringChars,
        errorsFirst: o.errorsFirst,
        sort: o.sort?.text,
        next: o.recordsNext,
        storing: o.store !== undefined,
        tool: o.tool,
      },
    },
  };
}

/**
 * The meta builder's slice: what it reports and how it cleans, with keyed fingerprints when the
 * host gave a key.
 *
 * @example
 * const meta = metaOptions(compiled, clean, cursor);
 */
export function metaOptions(
  o: CompiledOptions,
  clean: MetaOptions["clean"],
  cursor: NonNullable<MetaOptions["cursor"]>,
): MetaOptions {
  const key = o.fingerprintKey;
  return {
    maxTokens: o.maxTokens,
    maxBytes: o.maxBytes,
    tool: o.tool,
    spotlight: o.spotlight,
    datamark: o.datamark,
    redaction: o.redactor !== undefined,
    invisible: o.invisible,
    toolError: o.toolError,
    clean,
    cursor,
    records: {
      sort: o.sort?.text,
      projection: o.projection?.spec,
      contract: o.contract !== undefined,
    },
    ...(key !== undefined
      ? {
          fingerprint: async (values) => {
            const k = await importFingerprintKey(key);
            return Promise.all(
              values.slice(0, MAX_FINGERPRINTS).map(async ([rule, value]) => ({
                rule,
                fingerprint: await fingerprintOf(k, value),
              })),
            );
          },
        }
      : {}),
  };
}
