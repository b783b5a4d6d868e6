import { describe, expect, it } from "vitest";
import { Resolver } from "../../src/apk/arsc/resolver";
import type { LocaleRequest } from "../../src/apk/arsc/resolver";
import { ResourceTable } from "../../src/apk/arsc/resource-table";
import { StringPool } from "../../src/apk/binary/string-pool";
import { TYPE, buildArsc, resId } from "./helpers/arsc-builder";
import type { TypeSpec } from "./helpers/arsc-builder";
import { T } from "./helpers/encode";

const S = TYPE.string;
const ref = (index: number) => ({ type: T.REFERENCE, data: resId(S, index) });
const locale = (language: string, region = "", script = ""): LocaleRequest => ({ language, region, script, variant: "" });

function resolver(types: TypeSpec[], maxDepth = 16): Resolver {
  return new Resolver(ResourceTable.parse(buildArsc({ types })), maxDepth);
}

describe("Resolver", () => {
  const r = resolver([
    {
      typeId: S,
      entries: [
        { index: 0, key: "app_name", type: T.REFERENCE, data: resId(S, 1) },
        { index: 1, key: "alias_a", type: T.REFERENCE, data: resId(S, 2) },
        { index: 2, key: "alias_b", string: "Chained" },
        { index: 3, key: "loop_a", type: T.REFERENCE, data: resId(S, 4) },
        { index: 4, key: "loop_b", type: T.REFERENCE, data: resId(S, 3) },
        { index: 5, key: "self", type: T.REFERENCE, data: resId(S, 5) },
        { index: 6, key: "code", type: T.INT_DEC, data: 12 },
        { index: 7, key: "null", type: T.REFERENCE, data: 0 },
        { index: 8, key: "framework", type: T.REFERENCE, data: 0x01040000 },
        { index: 9, key: "bag", complex: 2 },
      ],
    },
    { typeId: S, config: { language: "fr" }, entries: [{ index: 2, key: "alias_b", string: "Enchaîné" }] },
    { typeId: S, config: { language: "fr", region: "CA" }, entries: [{ index: 2, key: "alias_b", string: "Enchaîné (CA)" }] },
    { typeId: S, config: { night: true }, entries: [{ index: 2, key: "alias_b", string: "Night" }] },
  ]);

  it("follows a chain of references to a string", () => {
    expect(r.resolve(ref(0), StringPool.empty)).toEqual({ kind: "string", value: "Chained", localized: false });
  });

  it("picks the most specific locale at each step and says the result is localized", () => {
    expect(r.resolve(ref(0), StringPool.empty, locale("fr"))).toEqual({ kind: "string", value: "Enchaîné", localized: true });
    expect(r.resolve(ref(0), StringPool.empty, locale("fr", "CA"))).toMatchObject({ value: "Enchaîné (CA)" });
    expect(r.resolve(ref(0), StringPool.empty, locale("fr", "BE"))).toMatchObject({ value: "Enchaîné" });
    expect(r.resolve(ref(0), StringPool.empty, locale("de"))).toEqual({ kind: "string", value: "Chained", localized: false });
  });

  it("prefers a config with no other qualifier (not the night variant) for the default", () => {
    expect(r.resolve(ref(2), StringPool.empty)).toMatchObject({ value: "Chained" });
  });

  it("detects a two-step loop and a self reference with a clear reason", () => {
    const loop = r.resolve(ref(3), StringPool.empty);
    expect(loop).toMatchObject({ kind: "unresolved" });
    expect(loop.kind === "unresolved" && loop.reason).toMatch(/loop through @string\/loop_a/);
    const self = r.resolve(ref(5), StringPool.empty);
    expect(self.kind === "unresolved" && self.reason).toMatch(/loop through @string\/self/);
  });

  it("bounds a long chain by maxDepth", () => {
    const chain = Array.from({ length: 30 }, (_, i) =>
      i < 29 ? { index: i, key: `c${i}`, type: T.REFERENCE, data: resId(S, i + 1) } : { index: i, key: `c${i}`, string: "end" },
    );
    const deep = resolver([{ typeId: S, entries: chain }], 8);
    const result = deep.resolve(ref(0), StringPool.empty);
    expect(result.kind === "unresolved" && result.reason).toMatch(/longer than 8/);
    const enough = resolver([{ typeId: S, entries: chain }], 30);
    expect(enough.resolve(ref(0), StringPool.empty)).toMatchObject({ kind: "string", value: "end" });
  });

  it("returns non-string values as values", () => {
    expect(r.resolve(ref(6), StringPool.empty)).toEqual({ kind: "value", value: { type: T.INT_DEC, data: 12 }, localized: false });
  });

  it("explains what cannot be resolved", () => {
    const reason = (v: { type: number; data: number }) => {
      const res = r.resolve(v, StringPool.empty);
      return res.kind === "unresolved" ? res.reason : `resolved: ${JSON.stringify(res)}`;
    };
    expect(reason(ref(7))).toMatch(/@null/);
    expect(reason(ref(8))).toMatch(/Android framework/);
    expect(reason(ref(9))).toMatch(/complex/);
    expect(reason(ref(100))).toMatch(/not in resources.arsc/);
    expect(reason({ type: T.ATTRIBUTE, data: 0x01010000 })).toMatch(/theme/);
    expect(new Resolver(undefined, 16).resolve(ref(0), StringPool.empty)).toMatchObject({
      kind: "unresolved",
      reason: expect.stringMatching(/without resources.arsc/),
    });
  });
});
