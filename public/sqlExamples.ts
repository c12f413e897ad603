/**
 * The SQL page's example queries, ready to run on the archive's database (docs/datasets.md). The
 * browser test runs the same text in Node with sql.js and compares the rows.
 */
import { DATABASE_NAME, tableFilePath } from "../src/api/datasets/files.js";

/** The database the page queries. */
export const DATABASE_URL = `/api${tableFilePath(DATABASE_NAME, "sqlite")}`;

export interface Example {
  id: string;
  sql: string;
}

export const EXAMPLES: readonly Example[] = [
  {
    id: "thirds",
    sql: `-- Every maqām whose third degree lies below 350 cents above its tonic in every tuning system
-- that realises it (its taḥlīl, from every starting note).
SELECT maqam_id,
       COUNT(DISTINCT tuning_system_id) AS tuning_systems,
       ROUND(MIN(cents_from_tonic), 1) AS lowest_third,
       ROUND(MAX(cents_from_tonic), 1) AS highest_third
FROM maqam_renderings
WHERE direction = 'ascending' AND position = 2 AND is_transposed = 0
GROUP BY maqam_id
HAVING MAX(cents_from_tonic) < 350
ORDER BY highest_third, maqam_id`,
  },
  {
    id: "differences",
    sql: `-- The notes on which two tuning systems (change the ids) differ by more than 20 cents,
-- from each starting note both have.
WITH chosen (a, b) AS (VALUES ('alkindi_874', 'ronzevalle_1904'))
SELECT x.starting_note, x.note_name_id, x.octave,
       ROUND(x.cents, 1) AS cents_a, ROUND(y.cents, 1) AS cents_b,
       ROUND(y.cents - x.cents, 1) AS difference
FROM chosen
JOIN pitch_classes x ON x.tuning_system_id = chosen.a
JOIN pitch_classes y ON y.tuning_system_id = chosen.b
  AND y.starting_note = x.starting_note AND y.note_name_id = x.note_name_id
WHERE x.note_name_id <> 'none' AND ABS(y.cents - x.cents) > 20
ORDER BY x.starting_note, x.octave, x.pitch_class_index`,
  },
];
