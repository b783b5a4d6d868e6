import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enrollProfile, parseDeviceAnswer, signContent, signingIdentity, SignedDataError, verifiedContent } from "../../src/devices";

/**
 * The CMS side of the profile service (docs/devices.md), checked against OpenSSL: what Hangar
 * signs verifies with `openssl cms -verify` and `openssl smime -verify`; what OpenSSL signs (as an
 * iPhone signs its answer) verifies here, and a changed byte does not.
 */

let dir: string;
const run = (args: string[], input?: Buffer) => execFileSync("openssl", args, { cwd: dir, stdio: ["pipe", "pipe", "pipe"], ...(input ? { input } : {}) });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hangar-cms-"));
  run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Hangar profile signer", "-days", "2", "-keyout", "rsa.key", "-out", "rsa.pem"]);
  run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=Hangar EC signer", "-days", "2", "-keyout", "ec.key", "-out", "ec.pem"]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pemOf = (name: string) => `${readFileSync(join(dir, `${name}.pem`), "utf8")}\n${readFileSync(join(dir, `${name}.key`), "utf8")}`;

describe("the signed enroll profile", () => {
  it.each(["rsa", "ec"])("verifies with openssl cms and smime (%s key), content unchanged", async (kind) => {
    const profile = enrollProfile("https://share.example/devices/enroll/callback", "c".repeat(43));
    const der = await signContent(profile, await signingIdentity(pemOf(kind)), new Date());
    writeFileSync(join(dir, "profile.p7"), der);
    const viaCms = run(["cms", "-verify", "-inform", "DER", "-in", "profile.p7", "-CAfile", `${kind}.pem`, "-purpose", "any"]);
    expect(viaCms.equals(profile)).toBe(true);
    const viaSmime = run(["smime", "-verify", "-inform", "DER", "-in", "profile.p7", "-CAfile", `${kind}.pem`, "-purpose", "any"]);
    expect(viaSmime.equals(profile)).toBe(true);
    // And with our own verifier.
    expect((await verifiedContent(der)).equals(profile)).toBe(true);
  });

  it("refuses a PEM without a key or without a certificate", async () => {
    await expect(signingIdentity(readFileSync(join(dir, "rsa.pem"), "utf8"))).rejects.toThrow(SignedDataError);
    await expect(signingIdentity(readFileSync(join(dir, "rsa.key"), "utf8"))).rejects.toThrow(SignedDataError);
  });

  it("is a Profile Service plist with the attributes Apple documents", () => {
    const profile = plist.parse(enrollProfile("https://share.example/devices/enroll/callback", "abc").toString("utf8")) as Record<string, any>;
    expect(profile.PayloadType).toBe("Profile Service");
    expect(profile.PayloadContent).toEqual({ URL: "https://share.example/devices/enroll/callback", DeviceAttributes: ["UDID", "PRODUCT", "VERSION", "DEVICE_NAME", "SERIAL"], Challenge: "abc" });
  });
});

describe("a device's signed answer", () => {
  const answer = Buffer.from(plist.build({ CHALLENGE: "abc", UDID: "00008030-001a35e11a88802e", PRODUCT: "iPhone15,2", VERSION: "22B83", DEVICE_NAME: " Ana\u2028s\tiPhone ", SERIAL: "F2LXK0ABCD12" }), "utf8");

  function signedByOpenssl(content: Buffer): Buffer {
    writeFileSync(join(dir, "answer.plist"), content);
    run(["cms", "-sign", "-in", "answer.plist", "-signer", "rsa.pem", "-inkey", "rsa.key", "-outform", "DER", "-nodetach", "-binary", "-out", "answer.p7"]);
    return readFileSync(join(dir, "answer.p7"));
  }

  it("verifies and parses, every field checked and normalized", async () => {
    const content = await verifiedContent(signedByOpenssl(answer));
    expect(parseDeviceAnswer(content)).toEqual({
      claim: { udid: "00008030-001A35E11A88802E", product: "iPhone15,2", version: "22B83", name: "Ana s iPhone" },
      serial: "F2LXK0ABCD12",
      challenge: "abc",
    });
  });

  it("refuses a changed byte, a detached signature, and bytes that are not CMS", async () => {
    const der = signedByOpenssl(answer);
    const tampered = Buffer.from(der);
    tampered[tampered.indexOf("iPhone15,2") + 6] = "7".charCodeAt(0);
    await expect(verifiedContent(tampered)).rejects.toThrow("The signature does not verify");
    writeFileSync(join(dir, "answer.plist"), answer);
    run(["cms", "-sign", "-in", "answer.plist", "-signer", "rsa.pem", "-inkey", "rsa.key", "-outform", "DER", "-binary", "-out", "detached.p7"]);
    await expect(verifiedContent(readFileSync(join(dir, "detached.p7")))).rejects.toThrow("carries no content");
    await expect(verifiedContent(answer)).rejects.toThrow(SignedDataError);
    await expect(verifiedContent(Buffer.concat([der, Buffer.from([0])]))).rejects.toThrow("not one DER/BER value");
  });

  it.each([
    ["a binary plist", Buffer.from("bplist00", "latin1")],
    ["an entity declaration", Buffer.from('<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY x "y">]><plist><dict/></plist>')],
    ["an array", Buffer.from(plist.build(["a"]))],
    ["a UDID of another shape", Buffer.from(plist.build({ CHALLENGE: "abc", UDID: "1234", PRODUCT: "iPhone15,2", VERSION: "1" }))],
    ["a hostile PRODUCT", Buffer.from(plist.build({ CHALLENGE: "abc", UDID: "00008030-001A35E11A88802E", PRODUCT: "<script>", VERSION: "1" }))],
    ["a number where a string belongs", Buffer.from(plist.build({ CHALLENGE: "abc", UDID: "00008030-001A35E11A88802E", PRODUCT: "iPhone15,2", VERSION: 18 }))],
    ["no challenge", Buffer.from(plist.build({ UDID: "00008030-001A35E11A88802E", PRODUCT: "iPhone15,2", VERSION: "1" }))],
  ])("refuses %s", (_label, content) => {
    expect(() => parseDeviceAnswer(content)).toThrow(/Invalid request/);
  });
});
