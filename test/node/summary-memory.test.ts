/**
 * What a shaped result keeps alive: the summary's strings (its messages' first lines, their
 * times) must be copies, not slices of the decoded chunks they came from, or every result would
 * hold its whole input (V8 keeps a sliced string's parent for as long as the slice lives).
 * Three results of 40 one-megabyte chunks, each chunk with a severe line of its own, are kept
 * while the heap is measured after a full collection; the negative control keeps the inputs
 * themselves and shows the measure sees them.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { shape } from "agent-airlock";
import { describe, expect, it } from "vitest";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MIB = 1 << 20;

function chunks(seed: number): string[] {
  return Array.from({ length: 40 }, (_, k) => {
    const word = `${"abcdefghij"[k % 10]}${"klmnopqrst"[(k + seed) % 10]}${"uvwxyz"[k % 6]}`;
    const filler = "INFO filler line of ordinary text\n".repeat(Math.floor(MIB / 34));
    return `2026-12-06T10:00:00.123Z ERROR unique failure ${word}${"q".repeat(k)} happened\n${filler}`;
  });
}

function stream(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at < parts.length) c.enqueue(encoder.encode(parts[at++]));
      else c.close();
    },
  });
}

const heap = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe("the summary's memory", () => {
  it("keeps no decoded chunk alive through a result", async () => {
    await shape(stream(chunks(9)), { maxTokens: 500 }); // warm: the pipeline and its tables
    const before = heap();
    const results = [];
    for (let r = 0; r < 3; r++) results.push(await shape(stream(chunks(r)), { maxTokens: 500 }));
    const grown = heap() - before;
    expect(results.every((x) => (x.meta.summary?.symptoms.length ?? 0) >= 16)).toBe(true);
    // Three inputs of 40 MiB: slices would keep about 120 MiB.
    expect(grown).toBeLessThan(16 * MIB);
  }, 120_000);

  it("negative control: holding the inputs themselves shows in the measure", () => {
    const before = heap();
    const held = [chunks(1), chunks(2)].map((parts) => parts.map((p) => ` ${p}`.slice(1)));
    const grown = heap() - before;
    expect(held.length).toBe(2);
    expect(grown).toBeGreaterThan(40 * MIB);
  });
});
