/** Bytes as a short figure for descriptions, from the schemas' limits (never restated): "25 MiB". */
export function mebibytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}

/** A count with thousands separators for descriptions: "2,000". */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}
