import { describe, expect, it } from "vitest";
import { fillTemplateBody, templateKey } from "./template-text";

describe("template text", () => {
  it("puts each value in its numbered place, in any order and repeated", () => {
    expect(fillTemplateBody("Hola {{1}}, tu pedido {{2}} llegó. Gracias, {{1}}.", ["Ana", "#42"])).toBe(
      "Hola Ana, tu pedido #42 llegó. Gracias, Ana.",
    );
    expect(fillTemplateBody("{{2}} antes que {{ 1 }}", ["uno", "dos"])).toBe("dos antes que uno");
  });

  it("keeps the placeholder of a value still blank or missing", () => {
    expect(fillTemplateBody("Hola {{1}}, código {{2}}", ["  "])).toBe("Hola {{1}}, código {{2}}");
  });

  it("keys a template by name and language", () => {
    expect(templateKey({ name: "aviso", language: "es_MX" })).not.toBe(templateKey({ name: "aviso", language: "pt_BR" }));
  });
});
