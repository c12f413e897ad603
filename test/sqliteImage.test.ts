/**
 * The database file of free pages the build starts its database on (scripts/sqliteImage.ts), read
 * by SQLite itself (sql.js): a valid database whose pages after the first are free, which a table
 * fills without growing it, and which VACUUM packs to the bytes a database begun empty packs to.
 */
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { freePagesImage } from "../scripts/sqliteImage.js";

const SQL = await initSqlJs();
const value = (db: InstanceType<typeof SQL.Database>, sql: string) => db.exec(sql)[0]?.values[0]?.[0];

/** The same rows, an index and statistics, then VACUUM, on the database given. */
function filled(db: InstanceType<typeof SQL.Database>): Uint8Array {
  db.run("PRAGMA page_size = 4096");
  db.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, name TEXT, cents REAL)");
  const insert = db.prepare("INSERT INTO notes VALUES (?, ?, ?)");
  for (let i = 1; i <= 5000; i++) insert.run([i, `note ${i % 97}`, (i * 1200) / 53]);
  insert.free();
  db.run("CREATE INDEX notes_by_name ON notes (name)");
  db.run("ANALYZE");
  db.run("VACUUM");
  return db.export();
}

describe("a database file of free pages", () => {
  it("is a valid database whose pages after the first are free", () => {
    for (const pages of [1, 2, 1018, 1019, 1020, 5000]) {
      const db = new SQL.Database(freePagesImage(pages, 4096));
      expect([value(db, "PRAGMA page_count"), value(db, "PRAGMA freelist_count"), value(db, "PRAGMA integrity_check")], `${pages} pages`).toEqual([
        pages,
        pages - 1,
        "ok",
      ]);
      expect(db.exec("SELECT name FROM sqlite_schema")).toEqual([]);
      db.close();
    }
  });

  it("is filled by a table without growing, and packs to the bytes of a database begun empty", () => {
    const started = new SQL.Database(freePagesImage(400, 4096));
    started.run("CREATE TABLE t (x TEXT)");
    started.run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO t SELECT printf('%0500d', i) FROM n");
    expect(value(started, "PRAGMA page_count")).toBe(400);
    expect(value(started, "PRAGMA integrity_check")).toBe("ok");
    started.close();
    const empty = filled(new SQL.Database());
    for (const pages of [2, 50, 2000])
      expect(Buffer.from(filled(new SQL.Database(freePagesImage(pages, 4096)))).equals(Buffer.from(empty)), `${pages} pages`).toBe(true);
  });

  it("refuses sizes SQLite has no file for", () => {
    expect(() => freePagesImage(0, 4096)).toThrow(RangeError);
    expect(() => freePagesImage(10, 1000)).toThrow(/a page size of 1000 bytes/);
  });
});
