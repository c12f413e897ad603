/**
 * Range requests (RFC 9110 §14) on the Node server (`npm start`'s process) over a small build with
 * the datasets of three tuning systems: a range of the database, of an API file and of a site
 * page is exactly that slice of the file on disk (206, unencoded), past the end a JSON 416, several
 * ranges, malformed ones and a stale If-Range the whole file (200), HEAD the whole file's headers,
 * and reading ranges of a table of 256 MiB does not raise the server's resident memory by half its size.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { rssMb, startNodeServer, type RunningRuntime } from "../scripts/runtimes.js";
import { buildWithDatasets } from "./support/buildSample.js";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let sample: Awaited<ReturnType<typeof buildWithDatasets>>;
let server: RunningRuntime;

beforeAll(async () => {
  sample = await buildWithDatasets(3);
  server = await startNodeServer({ buildDir: sample.outDir });
}, 300_000);
afterAll(async () => {
  await server?.stop();
  if (sample) rmSync(sample.dir, { recursive: true, force: true });
});

function send(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Reply> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((done, fail) => {
    const req = httpRequest({ host: hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });
}

const onDisk = (path: string) => readFileSync(join(sample.outDir, path));

/** Size of the table written for the memory check: a few times what a streamed read may leave to the collector. */
const GROWN_TABLE_MB = 256;

/** Writes a CSV table of GROWN_TABLE_MB MiB, a MiB at a time, each MiB's rows numbered apart. */
function writeGrownTable(path: string) {
  const fd = openSync(path, "w");
  try {
    for (let mib = 0; mib < GROWN_TABLE_MB; mib++) {
      const row = `${mib},tuning system ${mib % 35},starting note ${mib % 12},1/1\n`;
      const chunk = Buffer.alloc(1024 * 1024, row);
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
}
const DATABASE = "/api/datasets/maqam_archive.sqlite";
/** What a browser sends: every encoding, so that an unencoded range is the server's choice. */
const BROWSER = { "Accept-Encoding": "gzip, deflate, br" };
/** Each kind of file: the database (read from disk), a pre-rendered answer by its spec URL and its file, a site page. */
const FILES = [
  { url: DATABASE, file: DATABASE },
  { url: "/api/tuning-systems", file: "/api/tuning-systems/index.json" },
  { url: "/api/tuning-systems/index.json", file: "/api/tuning-systems/index.json" },
  { url: "/sql.html", file: "/sql.html" },
];

describe.each(FILES)("a range of $url", ({ url, file }) => {
  let bytes: Buffer;
  let etag: string;
  beforeAll(() => {
    bytes = onDisk(file);
    etag = `"${createHash("sha1").update(bytes).digest("base64url")}"`;
  });

  it("is exactly that slice of the file, unencoded, for first-last, first- and -suffix", async () => {
    const size = bytes.length;
    expect(size).toBeGreaterThan(2000);
    const asked: [string, number, number][] = [
      ["bytes=0-99", 0, 99],
      ["bytes=1024-2047", 1024, 2047],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ["bytes=-500", size - 500, size - 1],
      // Past the end: up to the last byte; a suffix longer than the file: all of it.
      [`bytes=${size - 3}-${size + 1000}`, size - 3, size - 1],
      [`bytes=-${size + 5}`, 0, size - 1],
    ];
    for (const [range, start, end] of asked) {
      const r = await send(url, { ...BROWSER, Range: range });
      expect(r.status, range).toBe(206);
      expect(r.headers["content-range"], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(Number(r.headers["content-length"]), range).toBe(end - start + 1);
      expect(r.headers["content-encoding"], range).toBeUndefined();
      expect(r.headers["accept-ranges"], range).toBe("bytes");
      expect(r.headers.etag, range).toBe(etag);
      expect(r.headers["access-control-allow-origin"]).toBe("*");
      expect(r.body.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it("past the end is a 416 naming the size, with a JSON error", async () => {
    for (const range of [`bytes=${bytes.length}-`, `bytes=${bytes.length + 10}-${bytes.length + 20}`, "bytes=-0"]) {
      const r = await send(url, { ...BROWSER, Range: range });
      expect(r.status, range).toBe(416);
      expect(r.headers["content-range"], range).toBe(`bytes */${bytes.length}`);
      expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = JSON.parse(r.body.toString());
      expect(body.error).toBe("Range not satisfiable");
      expect(body.message).toContain(`${bytes.length} bytes`);
      expect(Object.keys(body)).toEqual(["error", "message", "hint"]);
    }
  });

  it("several ranges, a malformed one, another unit or a stale If-Range get the whole file (200)", async () => {
    const headers: Record<string, string>[] = [
      { Range: "bytes=0-1,5-6" },
      { Range: "bytes=5-2" },
      { Range: "bytes=1x-2" },
      { Range: "items=0-1" },
      { Range: "bytes=0-99", "If-Range": '"stale"' },
      { Range: "bytes=0-99", "If-Range": `W/${etag}` },
      { Range: "bytes=0-99", "If-Range": "Wed, 21 Oct 2015 07:28:00 GMT" },
    ];
    for (const h of headers) {
      const r = await send(url, h);
      expect(r.status, JSON.stringify(h)).toBe(200);
      expect(r.headers["content-range"]).toBeUndefined();
      expect(r.body.equals(bytes), JSON.stringify(h)).toBe(true);
    }
    const current = await send(url, { Range: "bytes=10-19", "If-Range": etag });
    expect(current.status).toBe(206);
    expect(current.body.equals(bytes.subarray(10, 20))).toBe(true);
    // If-None-Match is weighed first: a client that holds the file gets a 304, range or not.
    expect((await send(url, { Range: "bytes=10-19", "If-None-Match": etag })).status).toBe(304);
  });

  it("HEAD gives the whole file's headers, range or not, without a body", async () => {
    for (const h of [{}, { Range: "bytes=0-99" }] as Record<string, string>[]) {
      const r = await send(url, h, "HEAD");
      expect(r.status).toBe(200);
      expect(r.headers["accept-ranges"]).toBe("bytes");
      expect(Number(r.headers["content-length"])).toBe(bytes.length);
      expect(r.headers.etag).toBe(etag);
      expect(r.body.length).toBe(0);
    }
  });
});

describe("the datasets' files", () => {
  it("go as they are, whatever the client accepts: a HEAD's length is the file's, as range readers need", async () => {
    for (const name of readdirSync(join(sample.outDir, "api", "datasets")).filter((n) => /\.(sqlite|parquet|csv)$/.test(n))) {
      const r = await send(`/api/datasets/${name}`, BROWSER, "HEAD");
      expect(r.headers["content-encoding"], name).toBeUndefined();
      expect(Number(r.headers["content-length"]), name).toBe(statSync(join(sample.outDir, "api", "datasets", name)).size);
    }
  });

  it("are read by range from disk: the server's memory does not grow by half a large table's size", async () => {
    const dir = join(sample.outDir, "api", "datasets");
    const [largest] = readdirSync(dir)
      .map((name) => ({ url: `/api/datasets/${name}`, size: statSync(join(dir, name)).size }))
      .sort((a, b) => b.size - a.size);
    expect(largest.size).toBeGreaterThan(10e6);
    // A table the size of a much larger archive's: what a streamed read leaves behind (64 KB chunks the
    // collector has not reclaimed yet, up to tens of MB) is far below half of it; a file held whole is not.
    const grownTable = { url: "/api/datasets/grown_table.csv", size: GROWN_TABLE_MB * 1024 * 1024 };
    writeGrownTable(join(dir, "grown_table.csv"));
    // A page reader's pattern: 4 KB pages all over the file, then the whole file once (streamed).
    const readAll = async ({ url, size }: typeof largest) => {
      const bytes = onDisk(url);
      for (let i = 0; i < 200; i++) {
        const start = Math.floor((i / 200) * (size - 4096));
        const r = await send(url, { Range: `bytes=${start}-${start + 4095}` });
        expect(r.body.equals(bytes.subarray(start, start + 4096))).toBe(true);
      }
      const whole = await send(url, BROWSER);
      expect(whole.body.equals(bytes)).toBe(true);
    };
    // The largest file of the build warms what any first answers warm (compiled code, buffers); the grown table, read first now, is measured.
    await readAll(largest);
    const before = rssMb(server.pid);
    await readAll(grownTable);
    const grown = rssMb(server.pid) - before;
    console.log(
      `server RSS ${before.toFixed(1)} MB before, ${grown >= 0 ? "+" : ""}${grown.toFixed(1)} MB after 200 ranges and one whole read of ${grownTable.url} (${(grownTable.size / 1e6).toFixed(1)} MB)`,
    );
    expect(grown).toBeLessThan(grownTable.size / 1e6 / 2);
  }, 60_000);
});
