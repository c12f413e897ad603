/**
 * The datasets: the tables in their order, the files each is published as and the views of the
 * SQLite database. Paths are below /api, as the handler and the build name them.
 */
import type { AnyTable } from "./columns.js";
import { citations, noteNames, sources, tuningSystems } from "./reference.js";
import { degreeAjnas, intervals, jinsRenderings, maqamRenderings, modulations, pitchClasses } from "./renderings.js";

export const TABLES: readonly AnyTable[] = [
  tuningSystems,
  noteNames,
  sources,
  citations,
  pitchClasses,
  maqamRenderings,
  jinsRenderings,
  degreeAjnas,
  intervals,
  modulations,
];

/** Views of the database for common questions, each a name, what it answers and its SQL. */
export const VIEWS = [
  {
    name: "maqam_scales",
    about: "The ascending scale of every maqām rendering in cents from its tonic, one row per degree.",
    sql: `SELECT tuning_system_id, starting_note, maqam_id, rendering_id, tonic, position, scale_degree, note_name, cents, cents_from_tonic
FROM maqam_renderings WHERE direction = 'ascending'`,
  },
  {
    name: "maqam_thirds",
    about: "The third degree of every maqām rendering (ascending), in cents above the tonic.",
    sql: `SELECT tuning_system_id, starting_note, maqam_id, rendering_id, tonic, note_name, cents_from_tonic
FROM maqam_renderings WHERE direction = 'ascending' AND position = 2`,
  },
  {
    name: "note_cents_spread",
    about: "Per note name in octave 1, the lowest and highest cents over every tuning system from the starting note yegah, and their difference.",
    sql: `SELECT note_name_id, COUNT(DISTINCT tuning_system_id) AS tuning_systems, MIN(cents) AS min_cents, MAX(cents) AS max_cents, MAX(cents) - MIN(cents) AS spread_cents
FROM pitch_classes WHERE octave = 1 AND starting_note = 'yegah' AND note_name_id <> 'none' GROUP BY note_name_id`,
  },
  {
    name: "cited_pages",
    about: "Every citation with the source's title, type and authors.",
    sql: `SELECT c.entity_kind, c.entity_id, c.page, s.source_id, s.source_type, s.title_english, s.authors
FROM citations c JOIN sources s ON s.source_id = c.source_id`,
  },
] as const;
