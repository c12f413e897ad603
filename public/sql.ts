/**
 * The SQL page: SQL in the browser on the archive's SQLite database, read over HTTP range requests
 * (sql.js-httpvfs: SQLite in a worker whose file is the host's, fetched page by page as a query
 * needs it), and rows of a table's Parquet file read the same way (hyparquet). Only files: it works
 * on any static host that honours Range (every common one does) and on the offline mirror.
 */
import { createDbWorker, type WorkerHttpvfs } from "sql.js-httpvfs";
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects, type AsyncBuffer } from "hyparquet";
import { DICTIONARY_FILE } from "../src/api/datasets/files.js";
import { el, errorText } from "./dom.js";
import { applyLanguage, fill, t } from "./i18n.js";
import { DATABASE_URL, EXAMPLES } from "./sqlExamples.js";

/** Where the build copies the worker and SQLite's WebAssembly from the package (scripts/site.ts). */
const WORKER_URL = "/sql/sqlite.worker.js";
const WASM_URL = "/sql/sql-wasm.wasm";
/** One SQLite page per request (the database's page size), more when SQLite reads on in order. */
const CHUNK = 4096;
/** A query that would read more than this is stopped (it would be faster to download the file). */
const MAX_BYTES = 64 * 1024 * 1024;
/** The first read of a Parquet file's end: its footer (metadata) fits in it for every table. */
const FOOTER_READ = 64 * 1024;
/** Rows drawn of a result; the count says how many there are. */
const SHOWN = 500;

type Value = string | number | null | Uint8Array | bigint;
interface Result {
  columns: string[];
  values: Value[][];
}

const kb = (bytes: number) => `${(bytes / 1024).toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1 })} KB`;
const shown = (v: Value): string => (v === null ? "NULL" : v instanceof Uint8Array ? `(${v.length} bytes)` : String(v));

/** A result as a table, at most SHOWN rows; a region that scrolls sideways and can be focused to. */
function drawTable(host: HTMLElement, { columns, values }: Result, caption: string) {
  // Identifiers and numbers read left to right; the caption is in the page's language.
  const table = el("table", "", { dir: "ltr" }, el("caption", caption, { dir: document.documentElement.dir }));
  table.append(el("thead", "", {}, el("tr", "", {}, ...columns.map((c) => el("th", c, { scope: "col" })))));
  const body = el("tbody");
  for (const row of values.slice(0, SHOWN)) body.append(el("tr", "", {}, ...row.map((v) => el("td", shown(v)))));
  table.append(body);
  host.replaceChildren(table);
  host.setAttribute("tabindex", "0");
  host.setAttribute("role", "region");
  host.setAttribute("aria-label", caption);
}

const rowsCaption = (n: number) => (n > SHOWN ? fill(t.sqlShown, { rows: n, shown: SHOWN }) : fill(t.sqlRows, { rows: n }));

// ── SQL ──────────────────────────────────────────────────────────────────────────────────

let opened: Promise<WorkerHttpvfs> | undefined;
/** The database, opened on the first query: loading the page fetches none of it. */
const database = () => {
  opened ??= createDbWorker(
    [{ from: "inline", config: { serverMode: "full", url: DATABASE_URL, requestChunkSize: CHUNK } }],
    new URL(WORKER_URL, location.href).href,
    new URL(WASM_URL, location.href).href,
    MAX_BYTES,
  );
  return opened;
};

async function runSql(sql: string, status: HTMLElement, result: HTMLElement) {
  result.dataset.state = "running";
  status.textContent = t.sqlRunning;
  try {
    const worker = await database();
    // The last statement's rows are the result (a script may create views first).
    const results = (await worker.db.exec(sql)) as Result[];
    const last = results.at(-1) ?? { columns: [], values: [] };
    drawTable(result, last, rowsCaption(last.values.length));
    result.dataset.state = "done";
    result.dataset.rows = String(last.values.length);
  } catch (e) {
    // SQLite's message (syntax, unknown column…) as text: the page stays usable.
    result.replaceChildren(el("p", fill(t.sqlError, { message: errorText(e) }), { class: "error", role: "alert" }));
    result.dataset.state = "error";
  }
  const stats = opened ? await (await opened).worker.getStats().catch(() => null) : null;
  status.textContent = stats ? fill(t.sqlRead, { fetched: kb(stats.totalFetchedBytes), total: kb(stats.totalBytes), requests: stats.totalRequests }) : "";
  if (stats) Object.assign(status.dataset, { fetched: stats.totalFetchedBytes, total: stats.totalBytes, requests: stats.totalRequests });
}

function startSql() {
  const text = document.getElementById("sql-text") as HTMLTextAreaElement;
  const status = document.getElementById("sql-status")!;
  const result = document.getElementById("sql-result")!;
  const examples = document.getElementById("examples")!;
  const labels: Record<string, string> = { thirds: t.sqlExampleThirds, differences: t.sqlExampleDifferences };
  for (const example of EXAMPLES) {
    const button = el("button", labels[example.id] ?? example.id, { type: "button", "data-example": example.id });
    button.addEventListener("click", () => {
      text.value = example.sql;
      text.focus();
    });
    examples.append(button);
  }
  text.value = EXAMPLES[0].sql;
  document.getElementById("sql-run")!.addEventListener("click", () => void runSql(text.value, status, result));
}

// ── Parquet ──────────────────────────────────────────────────────────────────────────────

interface DictionaryTable {
  name: string;
  rows: number;
  files: { parquet: { url: string; bytes: number } };
}

/** A file read by ranges, counting what it fetched. */
function countedBuffer(file: AsyncBuffer, count: { bytes: number; requests: number }): AsyncBuffer {
  return {
    byteLength: file.byteLength,
    slice: (start, end) => {
      count.bytes += (end ?? file.byteLength) - start;
      count.requests++;
      return file.slice(start, end);
    },
  };
}

async function readParquet(table: DictionaryTable, start: number, count: number, status: HTMLElement, result: HTMLElement) {
  result.dataset.state = "running";
  status.textContent = t.sqlRunning;
  const fetched = { bytes: 0, requests: 0 };
  try {
    const { url, bytes } = table.files.parquet;
    const file = countedBuffer(await asyncBufferFromUrl({ url, byteLength: bytes }), fetched);
    // The footer first, in a small read (hyparquet's default reads the last 512 KB), then the row groups that hold the rows.
    const metadata = await parquetMetadataAsync(file, { initialFetchSize: FOOTER_READ });
    const rows = (await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: Math.min(start + count, table.rows) })) as Record<string, Value>[];
    const columns = rows.length ? Object.keys(rows[0]) : [];
    drawTable(
      result,
      { columns, values: rows.map((r) => columns.map((c) => r[c])) },
      fill(t.parquetDone, { from: start, to: start + rows.length - 1, total: table.rows }),
    );
    result.dataset.state = "done";
    status.textContent = fill(t.sqlRead, { fetched: kb(fetched.bytes), total: kb(bytes), requests: fetched.requests });
  } catch (e) {
    result.replaceChildren(el("p", fill(t.sqlError, { message: errorText(e) }), { class: "error", role: "alert" }));
    result.dataset.state = "error";
    status.textContent = "";
  }
}

async function startParquet() {
  const form = document.getElementById("parquet") as HTMLFormElement;
  const status = document.getElementById("parquet-status")!;
  const result = document.getElementById("parquet-result")!;
  const choice = document.getElementById("parquet-table") as HTMLSelectElement;
  let tables: DictionaryTable[] = [];
  try {
    const response = await fetch(`/api/${DICTIONARY_FILE}`);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    tables = ((await response.json()) as { tables: DictionaryTable[] }).tables;
  } catch (e) {
    status.textContent = fill(t.sqlError, { message: errorText(e) });
  }
  choice.append(...tables.map((table) => new Option(table.name, table.name)));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const table = tables.find((x) => x.name === choice.value);
    const field = (name: string) => Math.max(0, Math.floor(Number((form.elements.namedItem(name) as HTMLInputElement).value) || 0));
    if (table) void readParquet(table, field("start"), Math.max(1, field("count")), status, result);
  });
  form.dataset.ready = "true";
}

applyLanguage((strings) => `${strings.sqlTitle} · ${strings.pageTitle}`);
startSql();
void startParquet();
