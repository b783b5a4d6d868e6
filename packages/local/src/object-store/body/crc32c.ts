/** The store verifies with the one CRC32C of Hangar, the one the CLI signs its parts with. */
export { crc32c } from "@hangar/inspect/crc32c";
