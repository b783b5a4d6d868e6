import {
  __export,
  __reExport
} from "./chunk-LM7JBYQ3.js";

// src/compat/zlib-compat.ts
var zlib_compat_exports = {};
__export(zlib_compat_exports, {
  crc32: () => crc322,
  crc32Fallback: () => crc32Js
});
__reExport(zlib_compat_exports, node_zlib_star);
import * as zlib from "node:zlib";
import * as node_zlib_star from "node:zlib";
var table;
function crc32Js(data, value = 0) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 3988292384 ^ c >>> 1 : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let crc = (value ^ 4294967295) >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 255] ^ crc >>> 8;
  return (crc ^ 4294967295) >>> 0;
}
var crc322 = typeof zlib.crc32 === "function" ? zlib.crc32 : crc32Js;

export {
  crc322 as crc32,
  zlib_compat_exports
};
