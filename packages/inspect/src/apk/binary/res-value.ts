/** Res_value data types (ResourceTypes.h). */
export const ValueType = {
  NULL: 0x00,
  REFERENCE: 0x01,
  ATTRIBUTE: 0x02,
  STRING: 0x03,
  FLOAT: 0x04,
  DIMENSION: 0x05,
  FRACTION: 0x06,
  DYNAMIC_REFERENCE: 0x07,
  DYNAMIC_ATTRIBUTE: 0x08,
  INT_DEC: 0x10,
  INT_HEX: 0x11,
  INT_BOOLEAN: 0x12,
  INT_COLOR_ARGB8: 0x1c,
  INT_COLOR_RGB8: 0x1d,
  INT_COLOR_ARGB4: 0x1e,
  INT_COLOR_RGB4: 0x1f,
} as const;

/** Size of a serialized Res_value: size u16, res0 u8, dataType u8, data u32. */
export const RES_VALUE_SIZE = 8;

export interface ResValue {
  type: number;
  /** Raw 32 bits, unsigned. */
  data: number;
}

export function isReference(value: ResValue): boolean {
  return value.type === ValueType.REFERENCE || value.type === ValueType.DYNAMIC_REFERENCE;
}

export function isIntType(type: number): boolean {
  return type >= ValueType.INT_DEC && type <= ValueType.INT_COLOR_RGB4;
}

export function formatResId(id: number): string {
  return `0x${(id >>> 0).toString(16).padStart(8, "0")}`;
}

const DIMENSION_UNITS = ["px", "dip", "sp", "pt", "in", "mm"];
const FRACTION_UNITS = ["%", "%p"];
const RADIX_MULTS = [1 / (1 << 0), 1 / (1 << 7), 1 / (1 << 15), 1 / (1 << 23)];

function complexToFloat(complex: number): number {
  const mantissa = (complex & 0xffffff00) | 0;
  return mantissa * (RADIX_MULTS[(complex >> 4) & 3] as number) / 256;
}

/** Java's Float.toString, close enough: shortest digits that round-trip through float32. */
function javaFloatToString(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "Infinity" : "-Infinity";
  if (Number.isInteger(f) && Math.abs(f) < 1e7) return `${f}.0`;
  for (let digits = 1; digits <= 9; digits++) {
    const text = f.toPrecision(digits);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(f);
}

/**
 * Text of a non-string value, as Android's TypedValue.coerceToString gives it (what
 * TypedArray.getString returns when a string attribute holds, e.g., an integer).
 */
export function coerceToString(value: ResValue): string | undefined {
  const data = value.data >>> 0;
  const signed = data | 0;
  switch (value.type) {
    case ValueType.NULL:
      return undefined;
    case ValueType.REFERENCE:
    case ValueType.DYNAMIC_REFERENCE:
      return `@${signed}`;
    case ValueType.ATTRIBUTE:
    case ValueType.DYNAMIC_ATTRIBUTE:
      return `?${signed}`;
    case ValueType.FLOAT: {
      const view = new DataView(new ArrayBuffer(4));
      view.setUint32(0, data);
      return javaFloatToString(view.getFloat32(0));
    }
    case ValueType.DIMENSION:
      return `${javaFloatToString(Math.fround(complexToFloat(data)))}${DIMENSION_UNITS[data & 0xf] ?? ""}`;
    case ValueType.FRACTION:
      return `${javaFloatToString(Math.fround(complexToFloat(data) * 100))}${FRACTION_UNITS[data & 0xf] ?? ""}`;
    case ValueType.INT_HEX:
      return `0x${data.toString(16)}`;
    case ValueType.INT_BOOLEAN:
      return data !== 0 ? "true" : "false";
    default:
      if (value.type >= ValueType.INT_COLOR_ARGB8 && value.type <= ValueType.INT_COLOR_RGB4) {
        return `#${data.toString(16)}`;
      }
      if (isIntType(value.type)) return String(signed);
      return undefined;
  }
}
