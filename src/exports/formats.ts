/**
 * The one table of export formats: extension → what the file is (the route summaries). Every
 * format is plain ASCII text with one content type. The writers (render.ts), the routes and their
 * pre-render lists (src/api/exports), the download pattern (staticPath.ts) and the edge rules
 * (serve/deploy.ts) derive from it; a new format is a row here and its writer in render.ts.
 */
export const EXPORT_FORMATS = {
  scl: { name: "Scala scale (.scl)" },
  kbm: { name: "Scala keyboard mapping (.kbm)" },
  tun: { name: "AnaMark tuning (.tun, all 128 MIDI notes)" },
} as const;

export type Format = keyof typeof EXPORT_FORMATS;
export const FORMATS = Object.keys(EXPORT_FORMATS) as Format[];

/** The content type of every export file (and of every text answer). */
export const TEXT_FILE_TYPE = "text/plain; charset=us-ascii";
