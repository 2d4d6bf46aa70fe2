/**
 * Telemetry: the facts of every call in `meta.telemetry` and through `onShaped`, checked against
 * independent measures (gpt-tokenizer's own countTokens, TextEncoder, line counts of the input
 * as generated), and the privacy rule: planted secrets and planted words of tool text never reach
 * the hook or a span. The negative control shows the planted words do reach `meta` where `meta`
 * reports tool text (cleaned), so the check can see a leak.
 */
import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { describe, expect, it } from "vitest";
import {
  createShaper,
  EXACT_BEFORE_BYTES,
  recordOnSpan,
  type Shaped,
  type ShapedTelemetry,
  shape,
  telemetryAttributes,
} from "../../src/index.js";
import { withTelemetry } from "../../src/telemetry/facts.js";
import { secretCases } from "../fixtures/secrets.js";
import { bytesOf, chunkedStream, o200kCount, serviceLog, split } from "../helpers/sources.js";

const utf8 = (text: string) => new TextEncoder().encode(text).byteLength;
const facts = (shaped: Shaped): ShapedTelemetry => {
  const t = shaped.meta.telemetry;
  if (t === undefined) throw new Error("no telemetry");
  return t;
};

describe("telemetry: the facts of a call, against independent counts", () => {
  it("a small text: tokens, bytes and lines before and after, exact", async () => {
    const input = `${serviceLog(400)}\nERROR db: connection refused (attempt 3)\n${serviceLog(50)}`;
    const shaped = await shape(input, { maxTokens: 800, tool: "logs" });
    const t = facts(shaped);
    expect(t.before).toEqual({
      tokens: await o200kCount(input),
      bytes: utf8(input),
      lines: 451,
      estimated: false,
    });
    expect(t.after.tokens).toBe(await o200kCount(shaped.text));
    expect(t.after.bytes).toBe(utf8(shaped.text));
    expect(t.after.lines).toBe(shaped.meta.sections[0]?.keptLines);
    expect(t).toMatchObject({ tool: "logs", status: "partial", kind: "text", maxTokens: 800 });
    expect(t.cuts).toEqual(shaped.meta.cuts);
    expect(t.cuts.some((c) => c.kind === "lines")).toBe(true);
    expect(t.evidence).toMatchObject({ found: 1, kept: 1, cut: 0 });
    expect((t.evidence.templates as { severe?: unknown } | undefined)?.severe).toEqual({
      templates: 1,
      shown: 1,
    });
    expect(Number.isInteger(t.ms) && t.ms >= 0).toBe(true);
  });

  it("the same bytes in odd chunks, and a command's two streams, count the same", async () => {
    const text = "naïve café — 😀 emoji\n".repeat(200);
    const chunked = chunkedStream(split(bytesOf(text), 7));
    const fromStream = facts(await shape(chunked.stream, { maxTokens: 300 }));
    expect(fromStream.before.tokens).toBe(await o200kCount(text));
    const stdout = serviceLog(300);
    const stderr = "error: linking failed\nnote: see above";
    const command = facts(await shape({ stdout, stderr, exitCode: 1 }, { maxTokens: 300 }));
    expect(command.before.tokens).toBe((await o200kCount(stdout)) + (await o200kCount(stderr)));
    expect(command).toMatchObject({ status: "error", error: "tool/failed", kind: "command" });
  });

  it("records: counts before and after, and the positions of the records not shown", async () => {
    const records = Array.from({ length: 1000 }, (_, i) => ({
      id: i + 1,
      level: i + 1 === 63 ? "error" : "info",
      title: `item ${i + 1}`,
    }));
    const json = JSON.stringify(records);
    const t = facts(await shape(json, { maxTokens: 600 }));
    expect(t.before).toMatchObject({
      tokens: await o200kCount(json),
      records: 1000,
      estimated: false,
    });
    const shown = t.after.records ?? 0;
    expect(shown).toBeGreaterThan(1);
    const cut = t.cuts.filter((c) => c.kind === "records");
    // "The matching record was at position 63": it is not among the cut positions.
    expect(cut.some((c) => c.kind === "records" && c.from <= 63 && 63 <= c.to)).toBe(false);
    expect(cut.reduce((n, c) => n + (c.kind === "records" ? c.count : 0), 0)).toBe(1000 - shown);
    expect(t.evidence).toMatchObject({ found: 1, kept: 1, cut: 0 });
    // An already-parsed value is counted as its JSON.
    const value = facts(await shape(records.slice(0, 40), { maxTokens: 600 }));
    expect(value.before.tokens).toBe(await o200kCount(JSON.stringify(records.slice(0, 40))));
    expect(value.before.estimated).toBe(false);
  });

  it("past 64 KiB the count is extrapolated and labelled an estimate; a byte cap is one too", async () => {
    const input = serviceLog(6000);
    expect(utf8(input)).toBeGreaterThan(EXACT_BEFORE_BYTES * 4);
    const t = facts(await shape(input, { maxTokens: 500 }));
    const real = await o200kCount(input);
    expect(t.before.estimated).toBe(true);
    expect(Math.abs(t.before.tokens - real) / real).toBeLessThan(0.05);
    expect(t.before.bytes).toBe(utf8(input));
    const capped = facts(await shape(serviceLog(100), { maxTokens: 500, maxBytes: 2000 }));
    expect(capped.before).toMatchObject({ bytes: 2000, estimated: true });
  });

  it("a run that would make counting quadratic is estimated, not counted", async () => {
    const input = `start\n${"[".repeat(30_000)}\nend`;
    const t = facts(await shape(input, { maxTokens: 500 }));
    expect(t.before.estimated).toBe(true);
    expect(t.before.tokens).toBeGreaterThan(10);
  });

  it("the host's tokenizer and cl100k are used for the count", async () => {
    const input = serviceLog(200);
    const cl = facts(await shape(input, { maxTokens: 500, tokenizer: "cl100k_base" }));
    expect(cl.before.tokens).toBe(cl100k(input, { disallowedSpecial: new Set() }));
    const custom = facts(
      await shape(input, { maxTokens: 500, tokenizer: { name: "chars", count: (s) => s.length } }),
    );
    expect(custom.before).toMatchObject({ tokens: input.length, estimated: false });
  });

  it("redactions by rule, without fingerprints", async () => {
    const [aws] = secretCases(15);
    const shaped = await shape(`boot\n${aws?.text}\nready`, {
      maxTokens: 300,
      redact: { fingerprintKey: "k".repeat(32) },
    });
    const t = facts(shaped);
    expect(t.redactions).toEqual({ count: 1, rules: { [aws?.rule as string]: 1 }, scope: "read" });
    expect(JSON.stringify(t)).not.toContain("fingerprint");
  });
});

describe("onShaped: the same facts, and a hook cannot break shaping", () => {
  it("receives what meta.telemetry holds, frozen", async () => {
    const heard: ShapedTelemetry[] = [];
    const shaped = await shape(serviceLog(500), { maxTokens: 300, onShaped: (t) => heard.push(t) });
    expect(heard).toHaveLength(1);
    expect(heard[0]).toEqual(shaped.meta.telemetry);
    expect(Object.isFrozen(heard[0]) && Object.isFrozen(heard[0]?.before)).toBe(true);
  });

  it("a hook that throws is noted in meta; one that rejects later is caught", async () => {
    const shaped = await shape("ok", {
      maxTokens: 300,
      onShaped: () => {
        throw new Error("exporter down");
      },
    });
    expect(shaped.status).toBe("ok");
    expect(shaped.meta.telemetry?.hook).toBe("threw");
    expect(JSON.stringify(shaped.meta)).not.toContain("exporter down");
    const later = await shape("ok", {
      maxTokens: 300,
      onShaped: (() => Promise.reject(new Error("later"))) as never,
    });
    expect(later.meta.telemetry?.hook).toBeUndefined();
    // An unhandled rejection would fail this test run.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("built when first read, it says the call's time, and reads as a plain property", async () => {
    const shaper = createShaper({ maxTokens: 300, tool: "logs" });
    await shaper("warm");
    const shaped = await shaper(serviceLog(200));
    const waited = performance.now();
    // A timer may fire a fraction of a millisecond early: wait until the clock says so.
    while (performance.now() - waited < 300)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const t = facts(shaped);
    // Control: the time since the result came back is past the wait; the call's own is not.
    expect(performance.now() - waited).toBeGreaterThanOrEqual(300);
    expect(t.ms).toBeLessThan(300);
    expect(t.after.tokens).toBe(await o200kCount(shaped.text));
    // The same object on every read, in JSON, in a spread and in a structured clone.
    expect(shaped.meta.telemetry).toBe(t);
    expect(JSON.parse(JSON.stringify(shaped.meta)).telemetry).toEqual(t);
    expect({ ...shaped.meta }.telemetry).toBe(t);
    expect(structuredClone(shaped.meta).telemetry).toEqual(t);
    // A host may replace it, as it could a plain property; not once it froze meta.
    const meta = shaped.meta as { telemetry?: unknown };
    meta.telemetry = undefined;
    expect(meta.telemetry).toBeUndefined();
    const frozen = Object.freeze((await shaper(serviceLog(20))).meta) as { telemetry?: unknown };
    const before = frozen.telemetry;
    expect(() => {
      frozen.telemetry = { forged: true };
    }).toThrow(TypeError);
    expect(frozen.telemetry).toBe(before);
    // Control: a frozen plain object refuses the same way.
    const plain = Object.freeze({ telemetry: before }) as { telemetry?: unknown };
    expect(() => {
      plain.telemetry = { forged: true };
    }).toThrow(TypeError);
  });
});

/** Words of tool text that no telemetry may carry, planted in every place tool text can go. */
const CANARY = "Zqxcanaryword";

function plantedInputs(): Array<{ title: string; input: unknown; options?: object }> {
  const secrets = secretCases(1515).slice(0, 40);
  const envDump = secrets.map((s) => s.text).join("\n");
  return [
    {
      title: "an env dump with 40 kinds of secret",
      input: `${CANARY} start\n${envDump}\n${CANARY} end`,
    },
    {
      title: "a failing command, secrets on stderr",
      input: { stdout: `${CANARY}\n${serviceLog(300)}`, stderr: envDump, exitCode: 3 },
    },
    {
      title: "records whose keys and values carry secrets, projected",
      input: JSON.stringify(
        secrets.map((s, i) => ({ id: i, [`${CANARY}${i}`]: s.secret, note: s.text })),
      ),
      options: { fields: ["id", "note"] },
    },
    {
      title: "an envelope key and a CSV header",
      input: `${CANARY}_col,token\n1,${secrets[0]?.secret}\n2,${secrets[1]?.secret}`,
      options: { format: "csv" },
    },
    {
      title: "a web page with a secret in its title",
      input: new Response(
        `<html><head><title>${CANARY} ${secrets[2]?.secret}</title></head><body><p>${secrets[3]?.text}</p></body></html>`,
        { headers: { "content-type": "text/html" } },
      ),
    },
    {
      title: "an HTTP error whose reason phrase and type carry tool text",
      input: new Response(`${CANARY} ${secrets[4]?.text}`, {
        status: 503,
        statusText: `${CANARY} down`,
        headers: { "content-type": `application/x-${CANARY}` },
      }),
    },
    {
      title: "binary bytes under a declared type",
      input: new Response(new Uint8Array([0, 1, 2, 3, 0, 0, 7]), {
        headers: { "content-type": `image/${CANARY}` },
      }),
    },
  ];
}

describe("privacy: no secret and no tool text reach the hook or a span", () => {
  it("planted secrets and words stay out of onShaped, meta.telemetry and span attributes", async () => {
    const secrets = secretCases(1515)
      .slice(0, 40)
      .map((s) => s.secret);
    for (const { title, input, options } of plantedInputs()) {
      let heard = "";
      const shaped = await shape(input as never, {
        maxTokens: 400,
        tool: "probe",
        ...options,
        onShaped: (t) => {
          heard = JSON.stringify(t);
        },
      });
      const attributes = JSON.stringify(telemetryAttributes(shaped, { callId: "call_1" }));
      for (const told of [heard, JSON.stringify(shaped.meta.telemetry), attributes]) {
        expect(told.length, title).toBeGreaterThan(50);
        expect(told, title).not.toContain(CANARY.toLowerCase().slice(0, 8));
        expect(told.toLowerCase(), title).not.toContain(CANARY.toLowerCase());
        for (const secret of secrets) expect(told, `${title}: a secret`).not.toContain(secret);
      }
    }
  });

  it("negative control: the planted words do reach meta where meta reports tool text", async () => {
    let seen = 0;
    for (const { input, options } of plantedInputs()) {
      const shaped = await shape(input as never, { maxTokens: 400, ...options });
      const { telemetry: _, ...rest } = shaped.meta;
      if (JSON.stringify(rest).includes(CANARY)) seen++;
    }
    // Dropped field names, the CSV header, the page title, the reason phrase and the type.
    expect(seen).toBeGreaterThanOrEqual(4);
  });

  it("the evidence engine's report keeps its numbers and loses its text", () => {
    const base = {
      text: "x",
      status: "ok",
      meta: {
        kind: "text",
        bytes: 1,
        lines: 1,
        tokens: 1,
        maxTokens: 100,
        tokenizer: "o200k_base",
        truncated: false,
        cuts: [],
        omittedLines: 0,
        sections: [],
        spotlight: { mode: "fence" },
        evidence: {
          templates: [
            { template: `${CANARY} failed for <*>`, severity: 2, count: 3, first: 10, last: 99 },
            { template: "ok", count: 1, positions: [4, 8], [CANARY]: 5 },
          ],
          [CANARY]: { count: 1 },
        },
      },
    } as unknown as Shaped;
    const t = facts(
      withTelemetry(base, {
        before: { tokens: 1, bytes: 1, estimated: false },
        started: 0,
        kept: { sections: [] },
      }),
    );
    expect(t.evidence.templates).toEqual({
      templates: [
        { severity: 2, count: 3, first: 10, last: 99 },
        { count: 1, positions: [4, 8] },
      ],
    });
    expect(JSON.stringify(t)).not.toContain(CANARY);
  });
});

describe("recordOnSpan: GenAI semantic convention names, airlock's own under airlock.", () => {
  it("sets the attributes on a span with setAttribute, or setAttributes when it has it", async () => {
    const shaped = await shape(
      { stdout: serviceLog(800), stderr: "boom", exitCode: 2 },
      {
        maxTokens: 300,
        tool: "bash",
      },
    );
    const one: Record<string, unknown> = {};
    recordOnSpan({ setAttribute: (k, v) => (one[k] = v) }, shaped, { callId: "call_7" });
    let batch: Record<string, unknown> = {};
    recordOnSpan(
      {
        setAttribute: () => {
          throw new Error("setAttributes should be used");
        },
        setAttributes: (a) => {
          batch = a;
        },
      },
      shaped,
      { callId: "call_7" },
    );
    expect(batch).toEqual(one);
    expect(one).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "bash",
      "gen_ai.tool.call.id": "call_7",
      "error.type": "tool/failed",
      "airlock.status": "error",
      "airlock.output.tokens": shaped.meta.tokens,
      "airlock.input.lines": 801, // stdout and stderr
      "airlock.truncated": true,
    });
    for (const [key, value] of Object.entries(one)) {
      expect(key).toMatch(/^(gen_ai\.|error\.type$|airlock\.)/);
      const ok = (v: unknown) => ["string", "number", "boolean"].includes(typeof v);
      expect(Array.isArray(value) ? value.every(ok) : ok(value), key).toBe(true);
    }
    const cuts = one["airlock.cut.from"] as number[];
    expect(cuts.length).toBe(one["airlock.cut.count"]);
  });
});
