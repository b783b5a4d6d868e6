/**
 * The common-password check. The list is zxcvbn-ts's `passwords-common` dictionary (≈49,000
 * passwords from leaked-password corpora, maintained in @zxcvbn-ts/language-common): loaded on
 * first use only, so the functions that never set a password do not pay for it, and this one pays
 * once per container (≈380 KB of bundle, a one-off decompression; see docs/accounts.md).
 */
let loaded: Promise<ReadonlySet<string>> | undefined;

async function load(): Promise<ReadonlySet<string>> {
  // The package has no exports map; this file is the one dictionary we need (not the diceware
  // list or the keyboard graphs its index also pulls in).
  const { default: words } = (await import("@zxcvbn-ts/language-common/dist/passwords.json.mjs")) as { default: string[] };
  return new Set(words);
}

export function commonPasswordList(): Promise<ReadonlySet<string>> {
  loaded ??= load().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

// Padding people add to a common word to pass a length rule: digits, punctuation, spaces.
const PADDING = /^[\d\p{P}\p{S}\s]+|[\d\p{P}\p{S}\s]+$/gu;

/**
 * True when the password (already NFKC-normalized) is on the list, case-insensitively, or is a
 * listed password of 4+ characters padded with digits and symbols ("dragon12345678!", "!!letmein2024!!").
 */
export async function isCommonPassword(password: string, list?: ReadonlySet<string>): Promise<boolean> {
  const words = list ?? (await commonPasswordList());
  const lower = password.toLowerCase();
  if (words.has(lower)) return true;
  const core = lower.replace(PADDING, "");
  return core.length >= 4 && core !== lower && words.has(core);
}
