import * as airlock from "airlock";

const out = document.querySelector<HTMLPreElement>("#out");
if (out) {
  out.textContent = Object.keys(airlock).sort().join("\n") || "(no exports yet)";
}
