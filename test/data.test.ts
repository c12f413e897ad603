import { describe, it, expect } from "vitest";
import { readFacts } from "../src/data/load.js";
import { DataError } from "../src/data/facts.js";
import { corruptedCopy } from "./support/processes.js";
import { createCatalog } from "../src/theory/catalog.js";

describe("archive data validation", () => {
  it("accepts the committed data", () => {
    const a = readFacts();
    expect(a.tuningSystems).toHaveLength(35);
    expect(a.maqamat).toHaveLength(112);
    expect(a.ajnas).toHaveLength(38);
    expect(a.sources).toHaveLength(17);
    expect(a.noteNames.octaves.map((o: readonly string[]) => o.length)).toEqual([37, 37, 37, 37, 36]);
  });

  it("names file, record id and field of a wrong type", () => {
    const dir = corruptedCopy("maqamat.json", (m) => {
      m.find((x: any) => x.id === "1").ascendingNoteNames = "rāst";
    });
    expect(() => readFacts(dir)).toThrowError(/maqamat\.json record '1' field 'ascendingNoteNames'/);
  });

  it("rejects an unknown source type", () => {
    const dir = corruptedCopy("sources.json", (s) => {
      s[0].sourceType = "Podcast";
    });
    expect(() => readFacts(dir)).toThrowError(DataError);
    expect(() => readFacts(dir)).toThrowError(/sources\.json record 'forster_2010' field 'sourceType'/);
  });

  it("rejects a note-name set that does not match the number of pitch classes", () => {
    const dir = corruptedCopy("tuningSystems.json", (t) => {
      t[0].noteNames[0].pop();
    });
    expect(() => readFacts(dir)).toThrowError(/tuningSystems\.json record 'ronzevalle_1904' field 'noteNames\.0'/);
  });

  it("rejects duplicate ids", () => {
    const dir = corruptedCopy("ajnas.json", (a) => {
      a[1].id = a[0].id;
    });
    expect(() => readFacts(dir)).toThrowError(/ajnas\.json record '2' field 'id': duplicate/);
  });

  it("rejects a truncated note-name universe", () => {
    const dir = corruptedCopy("note-names.json", (n) => {
      n.octaves[2].pop();
    });
    expect(() => readFacts(dir)).toThrowError(/note-names\.json field 'octaves\.2': expected 37 names, got 36/);
  });
});

describe("derived ids", () => {
  it("refuses two tuning systems that derive the same id, naming both records", () => {
    const dir = corruptedCopy("tuningSystems.json", (t) => {
      t.push({ ...t[0], id: "ronzevalle_1904_copy" });
    });
    const facts = readFacts(dir);
    expect(() => createCatalog(facts)).toThrowError(DataError);
    expect(() => createCatalog(facts)).toThrowError(
      /tuningSystems\.json records 'ronzevalle_1904' and 'ronzevalle_1904_copy' both derive the id 'ronzevalle_1904'/,
    );
  });

  it("refuses two maqāmāt whose names derive the same idName", () => {
    const dir = corruptedCopy("maqamat.json", (m) => {
      m.push({ ...m[0], id: "999", name: m[0].name.toUpperCase() });
    });
    expect(() => createCatalog(readFacts(dir))).toThrowError(
      /maqamat\.json records '1' \(maqām rāst\) and '999' \(MAQĀM RĀST\) both derive the id 'maqam_rast'/,
    );
  });

  it("accepts the committed data's ids", () => {
    expect(() => createCatalog(readFacts())).not.toThrow();
  });
});
