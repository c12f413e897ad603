/**
 * The empty database file with room for more that the build starts its database on
 * (scripts/sqliteImage.ts), read by SQLite itself (sql.js): a valid database of one page, which
 * tables fill within the room, to the bytes a database begun with no file has, whatever the room.
 */
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { emptyDatabaseImage } from "../scripts/sqliteImage.js";

const SQL = await initSqlJs();
const value = (db: InstanceType<typeof SQL.Database>, sql: string) => db.exec(sql)[0]?.values[0]?.[0];

/** The same rows in two transactions, an index and statistics, on the database given, as the build writes. */
function filled(db: InstanceType<typeof SQL.Database>): Uint8Array {
  db.exec("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF");
  db.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, name TEXT, cents REAL)");
  const insert = db.prepare("INSERT INTO notes VALUES (?, ?, ?)");
  for (const [from, to] of [
    [1, 3000],
    [3001, 5000],
  ]) {
    db.run("BEGIN");
    for (let i = from; i <= to; i++) insert.run([i, `note ${i % 97}`, (i * 1200) / 53]);
    db.run("COMMIT");
  }
  insert.free();
  db.run("CREATE INDEX notes_by_name ON notes (name)");
  db.run("ANALYZE");
  return db.export();
}

describe("an empty database file with room for more", () => {
  it("is a valid database of one page, without tables or free pages", () => {
    for (const pages of [1, 2, 5000]) {
      const db = new SQL.Database(emptyDatabaseImage(pages, 4096));
      expect([value(db, "PRAGMA page_count"), value(db, "PRAGMA freelist_count"), value(db, "PRAGMA integrity_check")], `${pages} pages`).toEqual([1, 0, "ok"]);
      expect(db.exec("SELECT name FROM sqlite_schema")).toEqual([]);
      db.close();
    }
  });

  it("is filled to the bytes of a database begun without a file, with room to spare, just enough, or too little", () => {
    const begunEmpty = filled(new SQL.Database());
    expect(begunEmpty.length).toBeGreaterThan(50 * 4096);
    for (const pages of [2, 50, begunEmpty.length / 4096, 2000]) {
      const db = new SQL.Database(emptyDatabaseImage(pages, 4096));
      const bytes = filled(db);
      expect(value(db, "PRAGMA integrity_check")).toBe("ok");
      expect(Buffer.from(bytes).equals(Buffer.from(begunEmpty)), `room for ${pages} pages`).toBe(true);
      db.close();
    }
  });

  it("refuses sizes SQLite has no file for", () => {
    expect(() => emptyDatabaseImage(0, 4096)).toThrow(RangeError);
    expect(() => emptyDatabaseImage(10, 1000)).toThrow(/a page size of 1000 bytes/);
  });
});
