/**
 * A SQLite database file with no schema whose pages after the first are all free
 * (https://www.sqlite.org/fileformat.html: the header, an empty table b-tree page for the schema,
 * the freelist's trunk pages). sql.js keeps a database's file in an array that grows by an eighth
 * at a time, each step a copy: a 74 MB database is copied some 600 MB on its way and faults as many
 * fresh pages in (2–3 s of the build's database thread). Opened on such a file, SQLite takes the
 * free pages instead of growing it, and the VACUUM that packs the database at the end writes the
 * same bytes as from an empty file: its output depends on the content, not on the pages it read.
 */

/** Leaves per trunk page: SQLite writes at most a quarter of the page less eight, and reads more. */
const leavesPerTrunk = (pageSize: number) => pageSize / 4 - 8;

/** The file of `pages` pages of `pageSize` bytes (a power of two from 512 to 32768). */
export function freePagesImage(pages: number, pageSize: number): Uint8Array {
  if (!Number.isInteger(pages) || pages < 1) throw new RangeError(`a database of ${pages} pages`);
  if (!(pageSize >= 512 && pageSize <= 32768 && (pageSize & (pageSize - 1)) === 0)) throw new RangeError(`a page size of ${pageSize} bytes`);
  const image = new Uint8Array(pages * pageSize);
  const view = new DataView(image.buffer);
  image.set(new TextEncoder().encode("SQLite format 3\0"), 0);
  view.setUint16(16, pageSize);
  // Legacy read and write versions, no reserved bytes, the fixed payload fractions.
  image.set([1, 1, 0, 64, 32, 32], 18);
  // The size in the header is trusted while the change counter (24) equals the version-valid-for number (92): both 0.
  view.setUint32(28, pages);
  view.setUint32(32, pages > 1 ? 2 : 0);
  view.setUint32(36, pages - 1);
  // Schema format 4, text in UTF-8.
  view.setUint32(44, 4);
  view.setUint32(56, 1);
  // The schema: a table b-tree leaf without cells, its content area starting at the end of the page.
  image[100] = 0x0d;
  view.setUint16(105, pageSize);
  // Pages 2 … pages: each trunk lists the pages after it, then names the next trunk.
  for (let trunk = 2; trunk <= pages; ) {
    const leaves = Math.min(leavesPerTrunk(pageSize), pages - trunk);
    const next = trunk + leaves < pages ? trunk + leaves + 1 : 0;
    const at = (trunk - 1) * pageSize;
    view.setUint32(at, next);
    view.setUint32(at + 4, leaves);
    for (let i = 0; i < leaves; i++) view.setUint32(at + 8 + 4 * i, trunk + 1 + i);
    if (next === 0) break;
    trunk = next;
  }
  return image;
}
