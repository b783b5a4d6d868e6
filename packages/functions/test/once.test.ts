import { describe, expect, it } from "vitest";
import { once } from "../src/composition/once";

describe("once (the composition root's one way to build)", () => {
  it("builds nothing until first asked, then hands out the same value", () => {
    let builds = 0;
    const get = once(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = get();
    expect(get()).toBe(first);
    expect(builds).toBe(1);
  });

  it("shares one pending promise between concurrent callers", async () => {
    let builds = 0;
    const get = once(async () => ++builds);
    const [a, b] = await Promise.all([get(), get()]);
    expect([a, b, builds]).toEqual([1, 1, 1]);
  });

  it("forgets a rejected promise, so the next call tries again", async () => {
    let builds = 0;
    const get = once(async () => {
      builds += 1;
      if (builds === 1) throw new Error("the SDK failed to load");
      return "loaded";
    });
    await expect(get()).rejects.toThrow("the SDK failed to load");
    expect(await get()).toBe("loaded");
    expect(await get()).toBe("loaded");
    expect(builds).toBe(2);
  });

  it("keeps a value built without error even if it is falsy", () => {
    let builds = 0;
    const get = once(() => {
      builds += 1;
      return undefined;
    });
    get();
    get();
    expect(builds).toBe(1);
  });
});
