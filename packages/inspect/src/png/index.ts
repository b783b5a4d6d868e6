export { PngError, cgbiToPng, decodePng, encodePng, isCgbi, pngSize } from "./png";
