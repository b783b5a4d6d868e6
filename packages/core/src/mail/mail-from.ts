/**
 * HANGAR_MAIL_FROM, parsed once for the stacks (refused at synth) and for the functions (the SES
 * request's FromEmailAddress). SES v2 SendEmail needs an address there, optionally with a display
 * name (`Hangar <noreply@example.com>`); a bare domain is an identity but not a sender, and SES
 * rejects it, so it is refused with a message that says what to write instead.
 */
export interface MailFrom {
  /** `noreply@example.com` */
  address: string;
  /** The display name, when one was given (`Hangar`). */
  name?: string;
  /** The address's domain: the SES identity the stack creates (with DKIM). */
  domain: string;
  /** What goes into FromEmailAddress: `Name <address>` or the address alone. */
  header: string;
}

// Deliberately narrower than RFC 5322: what SES and every receiving server accept without quoting.
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})$/;
const WITH_NAME = /^([^<>"\r\n]{1,64}?)\s*<([^<>\s]+)>$/;
const DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export class MailFromError extends Error {
  override readonly name = "MailFromError";
}

export function parseMailFrom(value: string): MailFrom {
  const raw = value.trim();
  const named = WITH_NAME.exec(raw);
  const name = named?.[1]?.trim();
  const address = named ? named[2]! : raw;
  const m = ADDRESS.exec(address);
  if (!m) {
    const hint = DOMAIN.test(raw)
      ? `"${raw}" is a domain, not a sender address: write an address at it, e.g. "noreply@${raw}" or "Hangar <noreply@${raw}>"`
      : `expected a sender address, e.g. "noreply@example.com" or "Hangar <noreply@example.com>", got "${raw}"`;
    throw new MailFromError(hint);
  }
  // A name with characters that would need RFC 2047 encoding or quoting is kept out rather than mangled.
  if (name !== undefined && !/^[\p{L}\p{N} .'_-]{1,64}$/u.test(name)) {
    throw new MailFromError(`the display name "${name}" may hold letters, digits, spaces and . ' _ - only`);
  }
  const domain = m[1]!.toLowerCase();
  return { address, ...(name ? { name } : {}), domain, header: name ? `${name} <${address}>` : address };
}
