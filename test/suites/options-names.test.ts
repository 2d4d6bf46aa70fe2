/**
 * A misspelt option is an error that names it and the nearest known one, wherever options are
 * taken: shape, createShaper, shapeRound, createResultReader, and the nested redact, limits and
 * contract options. The tables are data: `{ title, call, expected }`.
 */
import { describe, expect, it } from "vitest";
import {
  AirlockError,
  ceilingOf,
  createMemoryStore,
  createResultReader,
  createShaper,
  type ShapeOptions,
  shape,
  shapeRound,
} from "../../src/index.js";

const wrong = (options: unknown) => options as ShapeOptions;

const cases: ReadonlyArray<{
  readonly title: string;
  readonly call: () => unknown;
  readonly expected: RegExp;
}> = [
  {
    title: "shape: maxToken (the issue's example)",
    call: () => shape("x", wrong({ maxToken: 150 })),
    expected: /^options: unknown option "maxToken" \(did you mean "maxTokens"\?\)$/,
  },
  {
    title: "createShaper: a case slip",
    call: () => createShaper(wrong({ maxbytes: 10 })),
    expected: /unknown option "maxbytes" \(did you mean "maxBytes"\?\)/,
  },
  {
    title: "createShaper: two letters swapped",
    call: () => createShaper(wrong({ untrsuted: false })),
    expected: /unknown option "untrsuted" \(did you mean "untrusted"\?\)/,
  },
  {
    title: "shape: a name from another library, nothing near",
    call: () => shape("x", wrong({ temperature: 0.2 })),
    expected: /^options: unknown option "temperature"$/,
  },
  {
    title: "shape: the hook misspelt",
    call: () => shape("x", wrong({ onShape: () => undefined })),
    expected: /unknown option "onShape" \(did you mean "onShaped"\?\)/,
  },
  {
    title: "shape: nested redact option",
    call: () => shape("x", wrong({ redact: { keepExample: true } })),
    expected: /^options\.redact: unknown option "keepExample" \(did you mean "keepExamples"\?\)$/,
  },
  {
    title: "shape: nested limits option",
    call: () => shape("x", wrong({ limits: { maxDept: 3 } })),
    expected: /^options\.limits: unknown option "maxDept" \(did you mean "maxDepth"\?\)$/,
  },
  {
    title: "shape: nested contract option",
    call: () => shape("[]", wrong({ contract: { dropUnknwn: true } })),
    expected: /options\.contract: unknown option "dropUnknwn" \(did you mean "dropUnknown"\?\)/,
  },
  {
    title: "shape: contract invariants",
    call: () => shape("[]", wrong({ contract: { invariants: { maxRecord: 3 } } })),
    expected:
      /options\.contract\.invariants: unknown option "maxRecord" \(did you mean "maxRecords"\?\)/,
  },
  {
    title: "createResultReader: a misspelt store option",
    call: () =>
      createResultReader(wrong({ store: createMemoryStore(), storeMaxChar: 10 }) as never),
    expected: /unknown option "storeMaxChar" \(did you mean "storeMaxChars"\?\)/,
  },
  {
    title: "createResultReader: a hook it would never call is refused, not ignored",
    call: () => createResultReader({ store: createMemoryStore(), onShaped: () => undefined }),
    expected: /createResultReader: onShaped is not supported/,
  },
  {
    title: "shapeRound: the round's own option",
    call: () => shapeRound([{ input: "x" }], wrong({ maxRoundToken: 100 }) as never),
    expected: /^shapeRound: unknown option "maxRoundToken" \(did you mean "maxRoundTokens"\?\)$/,
  },
  {
    title: "shapeRound: a shape option among the round's",
    call: () => shapeRound([{ input: "x" }], wrong({ maxRoundTokens: 100, fileds: "a" }) as never),
    expected: /unknown option "fileds" \(did you mean "fields"\?\)/,
  },
  {
    title: "ceilingOf: a misspelt option",
    call: () => ceilingOf(wrong({ spotligth: "fence" })),
    expected: /unknown option "spotligth" \(did you mean "spotlight"\?\)/,
  },
  {
    title: "a very long unknown name is shown cut, on one line",
    call: () => shape("x", wrong({ [`x${"y".repeat(200)}\n`]: 1 })),
    expected: /unknown option "xy{63}…"$/,
  },
];

describe("unknown options: options/invalid, with the nearest known name", () => {
  for (const { title, call, expected } of cases) {
    it(title, async () => {
      let caught: unknown;
      try {
        await call();
      } catch (error) {
        caught = error;
      }
      expect(caught, "it must throw").toBeInstanceOf(AirlockError);
      expect((caught as AirlockError).code).toBe("options/invalid");
      expect((caught as AirlockError).message).toMatch(expected);
    });
  }

  it("every documented option is accepted (no false alarm), undefined values included", async () => {
    const all: ShapeOptions = {
      maxTokens: 500,
      maxBytes: 1 << 20,
      contentType: "text/plain",
      tool: "t",
      untrusted: true,
      tokenizer: "o200k_base",
      next: "narrow it",
      hashLimit: 10,
      redact: {
        rules: [],
        disable: [],
        knownValues: [],
        keepExamples: false,
        paths: false,
        pii: false,
      },
      invisible: true,
      spotlight: "fence",
      datamark: "¤",
      format: "auto",
      fields: undefined,
      sort: undefined,
      errorsFirst: true,
      envelope: "text",
      limits: { maxDepth: 10 },
      maxStringChars: 100,
      storeMaxChars: 1000,
      summarize: undefined,
      onShaped: () => undefined,
    };
    expect((await shape("fine", all)).status).toBe("ok");
  });
});
