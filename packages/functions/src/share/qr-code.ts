import { escapeHtml } from "@hangar/core/html";
import QRCode from "qrcode";

/**
 * The QR code of a URL as SVG, drawn on the server: the page needs no script, and CI can post
 * the same image (GET /share/<userKey>/qr.svg). Medium error correction survives a phone camera
 * at an angle; the 4-module quiet zone is what scanners expect.
 */
export async function qrSvg(url: string, label: string): Promise<string> {
  const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 4, color: { dark: "#000000", light: "#ffffff" } });
  // qrcode emits presentation attributes only (no style attribute), so a strict CSP holds inline.
  return svg.replace("<svg ", `<svg role="img" aria-label="${escapeHtml(label)}" `).trim();
}
