// Every method's Try it form (generated from the spec): the request previewed as it is edited,
// example presets, and Send (or, for an event stream, Subscribe and Stop).
import { $, $$ } from "./dom.js";
import { buildRequest, fill } from "./request.js";
import { send } from "./send.js";
import { openStream, streams } from "./stream.js";

export function setupForms(): void {
  for (const form of $$<HTMLFormElement>("form.try")) {
    const preview = $(".try-request", form);
    const refresh = () => {
      if (!preview) return;
      try {
        preview.textContent = JSON.stringify(buildRequest(form), null, 2);
        preview.classList.remove("invalid");
      } catch (error) {
        preview.textContent = (error as Error).message;
        preview.classList.add("invalid");
      }
    };
    form.addEventListener("input", refresh);
    form.addEventListener("change", (event) => {
      const preset = event.target as HTMLSelectElement;
      if (preset.classList.contains("try-preset")) {
        fill(form, JSON.parse(preset.selectedOptions[0]?.dataset.params ?? "{}") as Record<string, unknown>);
      }
      refresh();
    });
    const stream = form.dataset.stream === "true";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void (stream ? openStream(form) : send(form));
    });
    if (stream) $<HTMLButtonElement>(".try-stop", form)?.addEventListener("click", () => streams.get(form)?.abort());
    refresh();
  }
}
