import { createLineDecoder } from "../decode/lines.js";
import { completeLength } from "../decode/utf8.js";
import type { ShapedErrorCode } from "../errors/codes.js";
import { createKeeper, type KeeperLimits, type Kept } from "../keep/keeper.js";
import type { StreamSource } from "../options/compile.js";
import type { SectionName } from "../pipeline/shaped.js";
import type { FilterStats, TextFilter } from "../redact/stream.js";
import type { ReadSection } from "../render/lines.js";
import { sha256Hex } from "./digest.js";
import { SNIFF_BYTES, sniff } from "./sniff.js";
import { openSource } from "./source.js";

/**
 * Bytes left under `maxBytes`, shared by every source of one input (stdout and stderr together).
 * Each source still reading may hold a reservation that the others cannot take, so a huge stdout
 * read first cannot starve the stderr that explains a failure.
 */
export interface ByteBudget {
  remaining: number;
  readonly reserved: Map<SectionName, number>;
}

/** A budget for the given sources: each is guaranteed an equal share, or its known size if less. */
export function createByteBudget(
  maxBytes: number,
  sources: ReadonlyArray<{ name: SectionName; size: number | undefined }> = [],
): ByteBudget {
  const reserved = new Map<SectionName, number>();
  if (sources.length > 1) {
    const share = Math.floor(maxBytes / sources.length);
    for (const { name, size } of sources) reserved.set(name, Math.min(share, size ?? share));
  }
  return { remaining: maxBytes, reserved };
}

/** Bytes `name` may still read: what is left, less what is reserved for the other sources. */
function allowance(budget: ByteBudget, name: SectionName): number {
  let others = 0;
  for (const [n, r] of budget.reserved) if (n !== name) others += r;
  return Math.max(0, budget.remaining - others);
}

export interface ReadContext {
  readonly budget: ByteBudget;
  readonly contentType: string | undefined;
  readonly keeper: KeeperLimits;
  readonly lineCap: number;
  readonly hashLimit: number;
  /** A fresh filter for each text source (redaction, invisible characters); none when both are off. */
  readonly filter?: () => TextFilter;
  /** Redacts text that did not come through the filter (a failed source's error message). */
  readonly scrub?: (text: string) => string;
}

/** A section as read, plus what only the shaper needs to know. */
export interface ReadResult extends ReadSection {
  /** True when no line had a non-space character. */
  readonly blank: boolean;
  /** What the filter removed, when there was one. */
  readonly filtered?: FilterStats;
  readonly error?: {
    readonly code: ShapedErrorCode;
    readonly message: string;
    readonly detail?: string;
  };
}

/**
 * Reads one source under the shared byte cap, counting bytes as chunks arrive (a declared length
 * is never trusted) and cancelling the source at the first chunk past the cap. Text goes through
 * the line decoder into a keeper; binary is hashed (up to `hashLimit`) and never decoded.
 */
export async function readSection(
  name: SectionName,
  source: StreamSource,
  ctx: ReadContext,
): Promise<ReadResult> {
  const src = openSource(source);
  let bytes = 0;
  let capped = false;
  // The source said it had no more (as opposed to the cap or a failure stopping the read).
  let ended = false;
  let error: ReadResult["error"];

  /** Reads the next chunk under the cap; at the end of this source its reservation is released. */
  async function next(): Promise<Uint8Array | undefined> {
    const chunk = await pull();
    if (chunk === undefined) ctx.budget.reserved.delete(name);
    return chunk;
  }

  async function pull(): Promise<Uint8Array | undefined> {
    if (capped) return undefined;
    let chunk: Uint8Array | undefined;
    try {
      chunk = await src.read();
    } catch (cause) {
      const detail = (ctx.scrub ?? String)(describe(cause));
      error = {
        code: "intake/read-failed",
        message: `intake: reading ${name} failed: ${detail}`,
        detail,
      };
      stop(src);
      return undefined;
    }
    if (chunk === undefined) {
      ended = true;
      return undefined;
    }
    const allowed = allowance(ctx.budget, name);
    if (allowed <= 0) {
      capped = true;
      stop(src);
      return undefined;
    }
    if (chunk.byteLength > allowed) {
      // Cut at a code point boundary, so the cap never leaves half a character behind.
      const piece = chunk.subarray(0, allowed);
      const whole = completeLength(piece);
      chunk = whole > 0 && piece.byteLength - whole < 4 ? piece.subarray(0, whole) : piece;
      capped = true;
    }
    ctx.budget.remaining -= chunk.byteLength;
    const reservation = ctx.budget.reserved.get(name);
    if (reservation !== undefined)
      ctx.budget.reserved.set(name, Math.max(0, reservation - chunk.byteLength));
    bytes += chunk.byteLength;
    if (capped) stop(src);
    return chunk;
  }

  // Gather enough leading bytes to sniff.
  const leading: Uint8Array[] = [];
  let leadingBytes = 0;
  while (leadingBytes < SNIFF_BYTES) {
    const chunk = await next();
    if (chunk === undefined) break;
    leading.push(chunk);
    leadingBytes += chunk.byteLength;
  }
  // A JS string is text by construction: only byte sources are sniffed.
  const sniffed =
    typeof source === "string"
      ? ({ kind: "text", encoding: "utf-8" } as const)
      : sniff(concat(leading, SNIFF_BYTES), ctx.contentType);

  if (sniffed.kind === "binary") {
    return readBinary(sniffed.mime);
  }

  const keeper = createKeeper(ctx.keeper);
  const filter = ctx.filter?.();
  const decoder = createLineDecoder(keeper, {
    lineCap: ctx.lineCap,
    encoding: sniffed.encoding,
    tailWindow: ctx.keeper.tailChars,
    ...(filter ? { filter } : {}),
  });
  for (const chunk of leading) decoder.write(chunk);
  leading.length = 0;
  for (let chunk = await next(); chunk !== undefined; chunk = await next()) decoder.write(chunk);
  // Stopped early (cap or failure): the text ends inside whatever it was saying.
  decoder.end(capped || error !== undefined);
  const kept: Kept = keeper.finish();
  return {
    name,
    bytes,
    capped,
    invalid: decoder.stats.invalid,
    kept,
    blank: !decoder.stats.nonBlank,
    ...(filter ? { filtered: filter.stats } : {}),
    ...(error ? { error } : {}),
  };

  async function readBinary(mime: string): Promise<ReadResult> {
    // Hold bytes only up to hashLimit; past it stop reading: the size is all that is left to learn,
    // and a source that knows its size (bytes, Blob) tells it without being read.
    const held: Uint8Array[] = [...leading];
    let heldBytes = leadingBytes;
    let exhausted = ended && !capped && error === undefined;
    while (!exhausted && heldBytes <= ctx.hashLimit) {
      const chunk = await next();
      if (chunk === undefined) {
        exhausted = !capped && error === undefined;
        break;
      }
      held.push(chunk);
      heldBytes += chunk.byteLength;
    }
    if (!exhausted) stop(src);
    const sha256 = exhausted ? await sha256Hex(concat(held, heldBytes)) : undefined;
    const known = src.size !== undefined;
    const binary = {
      mime,
      bytes: exhausted ? bytes : known ? (src.size as number) : bytes,
      complete: exhausted || known,
      ...(sha256 ? { sha256 } : {}),
    };
    return { name, bytes, capped, invalid: 0, binary, blank: false, ...(error ? { error } : {}) };
  }
}

/** The first `limit` bytes of some chunks, as one array. */
export function concat(chunks: readonly Uint8Array[], limit: number): Uint8Array {
  let total = 0;
  for (const c of chunks) total += c.byteLength;
  const out = new Uint8Array(Math.min(total, limit));
  let offset = 0;
  for (const c of chunks) {
    if (offset >= out.byteLength) break;
    const piece = c.subarray(0, out.byteLength - offset);
    out.set(piece, offset);
    offset += piece.byteLength;
  }
  return out;
}

/** What a failure says, whatever was thrown (a throwing getter, an object without a prototype). */
function describe(cause: unknown): string {
  try {
    if (cause instanceof Error) return String(cause.message);
    return String(cause);
  } catch {
    return "the source failed";
  }
}

/**
 * Cancels a source without waiting for it: a source whose cancel never settles must not hang
 * the shaping (reading has stopped either way), and a cancel that fails changes nothing.
 */
function stop(src: { cancel(): Promise<void> }): void {
  src.cancel().catch(() => undefined);
}
