import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linesOf, writeParts } from "../scripts/fileParts.js";

describe("files written and read as parts", () => {
  const dir = mkdtempSync(join(tmpdir(), "maqam-parts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes every part in order, across many calls: more parts than one call takes, and more bytes", () => {
    // 3,000 small parts, then parts of 1 MB: past the 1,024 parts and the 4 MB of one call.
    const parts = [
      ...Array.from({ length: 3000 }, (_, i) => Buffer.from(`line ${i}\n`)),
      ...Array.from({ length: 6 }, (_, i) => Buffer.alloc(1 << 20, 97 + i)),
      new Uint8Array(0),
      Buffer.from("end\n"),
    ];
    const file = join(dir, "parts.bin");
    const bytes = writeParts(file, parts);
    const expected = Buffer.concat(parts);
    expect(bytes).toBe(expected.length);
    expect(readFileSync(file).equals(expected)).toBe(true);
    // Written again, the file is emptied first.
    expect(writeParts(file, [Buffer.from("short\n")])).toBe(6);
    expect(readFileSync(file, "utf8")).toBe("short\n");
  });

  it("writes a head last, over the room kept for it, from the parts made and let go before it", () => {
    const file = join(dir, "headed.bin");
    let made = 0;
    function* lines() {
      for (let i = 0; i < 5000; i++) {
        made++;
        yield Buffer.from(`part ${i}\n`);
      }
    }
    const headOf = () => Buffer.from(`${`${made} parts`.padEnd(15)}\n`);
    const bytes = writeParts(file, lines(), { bytes: 16, of: headOf });
    const text = readFileSync(file, "utf8");
    expect(bytes).toBe(text.length);
    expect(text.slice(0, 16)).toBe("5000 parts     \n");
    expect(text.slice(16, 30)).toBe("part 0\npart 1\n");
    expect(text.endsWith("part 4999\n")).toBe(true);
    // A head of another size than kept would overwrite the parts or leave room unwritten.
    expect(() => writeParts(file, [Buffer.from("x\n")], { bytes: 4, of: () => Buffer.from("too long\n") })).toThrow(/a head of 9 bytes where 4/);
  });

  it("reads the lines back as views, the last empty after a final line break", () => {
    expect(linesOf(Buffer.from("a\nbc\n\nd")).map(String)).toEqual(["a", "bc", "", "d"]);
    expect(linesOf(Buffer.from("a\n")).map(String)).toEqual(["a", ""]);
  });
});
