/**
 * The one table of export formats: extension → what the file is (the route summaries) and, for a
 * file of bytes rather than ASCII text, `binary`. The writers (render.ts), the routes and their
 * pre-render lists (src/api/exports), the download pattern (staticPath.ts) and the edge rules
 * (serve/deploy.ts) derive from it; a new format is a row here and its writer in render.ts.
 */
export const EXPORT_FORMATS = {
  scl: { name: "Scala scale (.scl)" },
  kbm: { name: "Scala keyboard mapping (.kbm)" },
  tun: { name: "AnaMark tuning (.tun, all 128 MIDI notes)" },
  ascl: { name: "Ableton Live tuning (.ascl: a Scala scale with Live's note names, reference pitch and key range)" },
  syx: { name: "MIDI Tuning Standard bulk tuning dump (.syx, 408 bytes of system exclusive)", binary: true },
} as const;

export type Format = keyof typeof EXPORT_FORMATS;
export const FORMATS = Object.keys(EXPORT_FORMATS) as Format[];

/** The content type of every text export file (and of every text answer). */
export const TEXT_FILE_TYPE = "text/plain; charset=us-ascii";
/** The content type of an export file of bytes (MIDI system exclusive). */
export const BINARY_FILE_TYPE = "application/octet-stream";

export const isBinaryFormat = (format: Format): boolean => "binary" in EXPORT_FORMATS[format];
/** The formats written as ASCII text, and those written as bytes. */
export const TEXT_FORMATS = FORMATS.filter((f) => !isBinaryFormat(f));
export const BINARY_FORMATS = FORMATS.filter(isBinaryFormat);

/** The content type of a download by the extension of its name. */
export const downloadTypeOf = (name: string): string => (BINARY_FORMATS.some((f) => name.endsWith(`.${f}`)) ? BINARY_FILE_TYPE : TEXT_FILE_TYPE);
