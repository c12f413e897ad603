/**
 * A SQLite database file with no schema, one page long as its header counts it, at the start of a
 * buffer of room for more (https://www.sqlite.org/fileformat.html: the header, an empty table
 * b-tree page for the schema). sql.js keeps a database's file in an array that grows by an eighth
 * at a time, each step a copy: a 74 MB database is copied some 600 MB on its way and faults as many
 * fresh pages in (2–3 s of the build's database thread). Opened on such a file, SQLite trusts the
 * size in the header (its change counter equals its version-valid-for number) and writes each new
 * page where a growing file would have it, into the room already there: the database has the bytes
 * of one begun empty, whatever the room, and `export()` copies its pages only.
 */

/** The file: an empty database of `pageSize` bytes a page (a power of two from 512 to 32768), in a buffer of `pages` pages. */
export function emptyDatabaseImage(pages: number, pageSize: number): Uint8Array {
  if (!Number.isInteger(pages) || pages < 1) throw new RangeError(`room for ${pages} pages`);
  if (!(pageSize >= 512 && pageSize <= 32768 && (pageSize & (pageSize - 1)) === 0)) throw new RangeError(`a page size of ${pageSize} bytes`);
  const image = new Uint8Array(pages * pageSize);
  const view = new DataView(image.buffer);
  image.set(new TextEncoder().encode("SQLite format 3\0"), 0);
  view.setUint16(16, pageSize);
  // Legacy read and write versions, no reserved bytes, the fixed payload fractions.
  image.set([1, 1, 0, 64, 32, 32], 18);
  // One page, no free pages; the size is trusted while the change counter (24) equals the version-valid-for number (92): both 0.
  view.setUint32(28, 1);
  // Schema format 4, text in UTF-8.
  view.setUint32(44, 4);
  view.setUint32(56, 1);
  // The schema: a table b-tree leaf without cells, its content area starting at the end of the page.
  image[100] = 0x0d;
  view.setUint16(105, pageSize);
  return image;
}
