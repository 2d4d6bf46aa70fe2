/**
 * Every line of the five public logs of ../shared/bench/logs against the time their structured
 * CSVs give (skipped where the data is not there). The fixture per layout, and the negative
 * controls, are in test/suites/timestamps.test.ts (all three runtimes).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { timeOf } from "../../src/pipeline/timestamps.js";

describe("timeOf on the public logs", () => {
  const dir = fileURLToPath(new URL("../../../shared/bench/logs/", import.meta.url));
  const layouts: Record<string, (r: Record<string, string>) => string> = {
    Apache: (r) => r.Time as string,
    Linux: (r) => `${r.Month} ${String(r.Date).padStart(2, " ")} ${r.Time}`,
    Mac: (r) => `${r.Month} ${String(r.Date).padStart(2, " ")} ${r.Time}`,
    Spark: (r) => `${r.Date} ${r.Time}`,
    Windows: (r) => `${r.Date} ${r.Time}`,
  };
  for (const [name, timeIn] of Object.entries(layouts)) {
    it.skipIf(!existsSync(`${dir}/${name}.log`))(`reads every line's time of ${name}`, () => {
      const lines = readFileSync(`${dir}/${name}.log`, "utf8").split(/\r?\n/);
      const csv = readFileSync(`${dir}/${name}.structured.csv`, "utf8");
      const [head = [], ...body] = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
      const rows = body.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i] ?? ""])));
      const wrong = rows.filter((r) => timeOf(lines[Number(r.LineId) - 1] ?? "") !== timeIn(r));
      expect(rows.length).toBeGreaterThan(1000);
      expect(wrong.slice(0, 3)).toEqual([]);
    });
  }
});
