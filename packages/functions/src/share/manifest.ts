import type { SharedFile } from "@hangar/core";
import { escapeXml } from "@hangar/core/xml";

export interface ManifestLinks {
  /** The package: a URL iOS fetches without cookies. */
  packageUrl: string;
  /** The icon route (display-image and full-size-image); absent without an icon. */
  iconUrl?: string;
}

const string = (s: string) => `<string>${escapeXml(s)}</string>`;

/**
 * The over-the-air install manifest iOS reads after an `itms-services://` link: one
 * software-package asset and the icons, and the bundle's identity. Every value is escaped: names
 * come from the package and may hold `&`, `<` or quotes.
 */
export function renderManifest(file: SharedFile, links: ManifestLinks): string {
  const m = file.metadata;
  const asset = (kind: string, url: string) =>
    `<dict><key>kind</key>${string(kind)}<key>url</key>${string(url)}</dict>`;
  const assets = [
    asset("software-package", links.packageUrl),
    ...(links.iconUrl ? [asset("display-image", links.iconUrl), asset("full-size-image", links.iconUrl)] : []),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
<key>items</key>
<array>
<dict>
<key>assets</key>
<array>
${assets.join("\n")}
</array>
<key>metadata</key>
<dict>
<key>bundle-identifier</key>${string(m.bundleId)}
<key>bundle-version</key>${string(m.version)}
<key>kind</key>${string("software")}
<key>title</key>${string(m.appName)}
</dict>
</dict>
</array>
</dict>
</plist>
`;
}
