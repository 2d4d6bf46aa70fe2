import { shape } from "airlock";
import { samples } from "./samples.ts";

// Everything is written with textContent: the page never parses tool output as HTML.
const select = document.querySelector<HTMLSelectElement>("#sample");
const budget = document.querySelector<HTMLInputElement>("#budget");
const out = document.querySelector<HTMLPreElement>("#out");
const meta = document.querySelector<HTMLPreElement>("#meta");
const status = document.querySelector<HTMLElement>("#status");

if (select && budget && out && meta && status) {
  for (const sample of samples) {
    const option = document.createElement("option");
    option.value = sample.id;
    option.textContent = sample.title;
    select.append(option);
  }

  const render = async () => {
    const sample = samples.find((s) => s.id === select.value) ?? samples[0];
    if (!sample) return;
    status.textContent = "shaping…";
    const maxTokens = Math.max(128, Number(budget.value) || 1000);
    const shaped = await shape(sample.make(), { maxTokens, tool: sample.tool });
    out.textContent = shaped.text;
    const { cuts, sections, ...rest } = shaped.meta;
    meta.textContent = JSON.stringify({ status: shaped.status, ...rest, sections, cuts }, null, 2);
    status.textContent = `${shaped.status} · ${shaped.meta.tokens} of ${maxTokens} tokens · ${shaped.meta.bytes} bytes in`;
  };

  select.addEventListener("change", render);
  budget.addEventListener("change", render);
  void render();
}
