/**
 * The site in a real browser (Debian's headless Chromium through playwright-core) over a reduced
 * build served by a plain static server: the landing page loads cleanly, the reference renders
 * every operation, the explorer shows maqām rāst in Ibn Sīnā from yegāh with the recorded cents and
 * one mark per pitch class, and the service worker answers recorded requests over all 31 endpoints
 * with the Node handler's status and bytes. Screenshots go to test-results/. Skipped only where
 * Chromium is missing, and never in CI.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { handleRequest } from "../src/serve/handler.js";
import { dataRoutes, routes as describedRoutes } from "../src/api/routes.js";
import { chromiumMissing, launchChromium } from "../scripts/browser.js";
import { recordedCases, endpointOf } from "./support/recorded.js";
import { replaySet } from "./support/replaySet.js";
import { catalog } from "./support/catalog.js";
import { axeViolations, explorerReady, overflow, watchedPage } from "./support/browserChecks.js";
import { differences, show, sweepCases } from "./support/explorerSweep.js";
import { INTERVALS, RAST_SYX, ROUTE_SEARCH, SHOTS, useSiteSample } from "./support/siteSample.js";
import type { RoutesAnswer } from "../public/routes.js";

const SW_CASES = 150;
/** Maqāmāt and ajnās per tuning system × starting note in the explorer's sweep (about 560 renderings), and its seed. */
const SWEEP_PER_CONTEXT = 4;
const SWEEP_SEED = Number(process.env.SWEEP_SEED ?? 17);
const ROUTE_EXAMPLE =
  "/modulation-routes?allowDownwardModulation=true&fromMaqam=maqam_rast&maxHops=2&maxRoutes=10&startingNote=yegah&toMaqam=maqam_bayyat&tuningSystem=ibnsina_1037";

const site = useSiteSample();
const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");
const nodeAnswer = async (path: string) => {
  const r = await handleRequest(new Request(`http://localhost/api${path}`), site.reference);
  return { status: r.status, sha1: sha1(new Uint8Array(await r.arrayBuffer())), source: r.headers.get("x-answer-source") };
};

const missing = chromiumMissing();
describe.skipIf(!process.env.CI && missing !== undefined)("in headless Chromium", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.stop();
  });

  const watched = () => watchedPage(browser.context);

  it("the landing page loads with no console error and no failed resource", async () => {
    const { page, problems } = await watched();
    await page.goto(`${site.server.origin}/`, { waitUntil: "load" });
    await page.waitForSelector("#explorer[data-ready=true]");
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.screenshot({ path: join(SHOTS, "landing.png"), fullPage: true });
    expect(await page.textContent("h1")).toContain("Maqām");
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(["en", "ar"])("the landing page's first view (%s) reads files only: no engine, no notation chunk", async (lang) => {
    const { page, problems } = await watched();
    const asked: string[] = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${site.server.origin}/?lang=${lang}`, { waitUntil: "load" });
    await page.waitForSelector("#explorer[data-ready=true]");
    expect(asked.filter((path) => /^\/client\/engine-|^\/chunks\/notation-/.test(path))).toEqual([]);
    expect(asked).toContain(
      "/api/maqamat/maqam_rast/@pitchClassDataType=all&startingNote=yegah&tuningSystem=ibnsina_1037.json".replace(
        "@",
        lang === "ar" ? "@includeArabic=true&" : "@",
      ),
    );
    expect(await page.textContent("#explorer-title .main")).toBe(lang === "ar" ? "مقام راست على راست" : "maqām rāst on rāst");
    expect(problems).toEqual([]);
    // The page remembers the language chosen; the next test starts from the default.
    await page.evaluate(() => localStorage.clear());
    await page.close();
  });

  it("the explorer shows maqām rāst in Ibn Sīnā from yegāh with the recorded cents and one mark per pitch class", async () => {
    const recorded = recordedCases().find((c) => c.path === "/tuning-systems/ibnsina_1037/yegah/pitch-classes");
    const centsOf = new Map(
      (recorded!.body as { pitchClasses: { noteName: string; octave: number; cents: number }[] }).pitchClasses.map((p) => [p.noteName, p.cents]),
    );
    const { page, problems } = await watched();
    await page.goto(`${site.server.origin}/?tuningSystem=ibnsina_1037&startingNote=yegah&kind=maqam&maqam=maqam_rast&format=cents#explorer`);
    await page.waitForSelector("#explorer[data-ready=true]");
    expect(await page.textContent("#explorer-title .main")).toBe("maqām rāst on rāst");
    expect(await page.textContent("#explorer-title .context")).toBe("Ibn Sīnā (1037) 7-Fret Oud 17-Tone, tuning starting on yegāh");
    const rows = await page.$$eval("table.pitches tr[data-row=ascending]", (trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
    );
    expect(rows.map((r) => r[1])).toEqual(["rāst", "dūgāh", "segāh", "chahārgāh", "nawā", "ḥusaynī", "awj"]);
    const names = ["rast", "dugah", "segah", "chahargah", "nawa", "husayni", "awj"];
    // Cents from the tonic beside the chosen value (cents from the tuning's starting note), each column labelled.
    rows.forEach((r, i) => {
      expect(Number(r[4])).toBeCloseTo(centsOf.get(names[i])!, 2);
    });
    rows.forEach((r, i) => {
      expect(Number(r[3])).toBeCloseTo(centsOf.get(names[i])! - centsOf.get("rast")!, 2);
    });
    expect(await page.$$eval("table.pitches thead th", (ths) => ths.map((th) => th.textContent))).toEqual([
      "Row",
      "Degree",
      "Note",
      "Western name",
      "Cents from the tonic (¢)",
      "cents above the tuning's starting note (¢)",
    ]);
    // Downloads grouped by what takes them; the .tun named as the tuning system's.
    expect(await page.$$eval("#explorer-links h5", (hs) => hs.map((h) => h.textContent))).toEqual([
      "Scala (Scala, Surge XT, Pianoteq, many synthesizers)",
      "AnaMark (.tun: Kontakt scripts, many soft synths)",
      "Ableton Live 12 (.ascl)",
      "Send to a synthesizer (MIDI Tuning Standard)",
      "Data and picture",
    ]);
    expect(await page.textContent("#explorer-links a[href^='/api/exports/tuning-systems/'][href$='.tun']")).toBe(
      "tuning system Ibn Sīnā (1037) 7-Fret Oud 17-Tone from yegāh (.tun)",
    );
    expect(await page.textContent("#explorer-links a[href$='/yegah.tun']:not([href^='/api/exports/tuning-systems/'])")).toBe(
      "this rendering on its note names' keys (.tun)",
    );
    for (const row of ["ascending", "descending"]) {
      const marks = await page.$$eval(`#picture g[data-row=${row}] circle.pc`, (cs) => cs.map((c) => Number(c.getAttribute("data-cents"))));
      const tableRows = await page.$$eval(`table.pitches tr[data-row=${row}]`, (trs) => trs.length);
      expect(marks).toHaveLength(tableRows);
    }
    const ascending = await page.$$eval("#picture g[data-row=ascending] circle.pc", (cs) => cs.map((c) => Number(c.getAttribute("data-cents"))));
    ascending.forEach((c, i) => {
      expect(c).toBeCloseTo(centsOf.get(names[i])! - centsOf.get("rast")!, 6);
    });
    await page.screenshot({ path: join(SHOTS, "explorer.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("send to synth: the rendering's MIDI Tuning Standard dump goes, byte for byte as the API serves it, to the MIDI output chosen", async () => {
    const { page, problems } = await watched();
    // Chromium has no MIDI device here: a stand-in output records what the page sends (the page's own code runs unchanged).
    await page.addInitScript(() => {
      const sent: number[][] = [];
      const output = { id: "synth-1", name: "Test synthesizer", send: (bytes: Uint8Array) => sent.push([...bytes]) };
      const access = { outputs: new Map([[output.id, output]]), inputs: new Map(), sysexEnabled: true, onstatechange: null };
      Object.defineProperty(window, "sentMidi", { value: sent });
      Object.defineProperty(navigator, "requestMIDIAccess", {
        value: async (o?: { sysex?: boolean }) => (o?.sysex ? access : Promise.reject(new Error("no sysex"))),
      });
    });
    await page.goto(`${site.server.origin}/?lang=en&tuningSystem=ibnsina_1037&startingNote=yegah&kind=maqam&maqam=maqam_rast#explorer`);
    await explorerReady(page);
    await page.click("#midi-send");
    expect(await page.textContent("#midi-send")).toBe("Send the tuning");
    expect(await page.$$eval("#midi-output option", (os) => os.map((o) => o.textContent))).toEqual(["Test synthesizer"]);
    await page.click("#midi-send");
    await page.waitForFunction(() => (document.querySelector("#midi-status")?.textContent ?? "") !== "");
    expect(await page.textContent("#midi-status")).toBe("Sent the tuning (408 bytes) to Test synthesizer.");
    const sent = (await page.evaluate(() => (window as unknown as { sentMidi: number[][] }).sentMidi)) as number[][];
    const served = await handleRequest(new Request(`http://localhost/api${RAST_SYX}`), site.reference);
    expect(served.status).toBe(200);
    expect(sent).toEqual([[...new Uint8Array(await served.arrayBuffer())]]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it(`the explorer swept over ${SWEEP_PER_CONTEXT} maqāmāt and ajnās per tuning system × starting note (seed ${SWEEP_SEED}), 422s included, shows what the API answers`, async () => {
    const cases = await sweepCases(catalog, SWEEP_PER_CONTEXT, SWEEP_SEED);
    expect(cases.length).toBeGreaterThanOrEqual(500);
    const kinds = new Set(cases.map((c) => `${c.state.kind} ${c.expect}${c.state.transposition ? " transposed" : ""}`));
    expect([...kinds].sort()).toEqual([
      "jins rendering",
      "jins rendering transposed",
      "jins tahlil-only",
      "jins unrealisable",
      "maqam rendering",
      "maqam rendering transposed",
      "maqam tahlil-only",
      "maqam unrealisable",
    ]);
    expect(new Set(cases.map((c) => `${c.state.tuningSystem}/${c.state.startingNote}`)).size).toBe(
      catalog.tuningSystems.reduce((n, ts) => n + ts.startingNotes.length, 0),
    );
    const { page, problems } = await watched();
    await page.goto(`${site.server.origin}/`);
    await explorerReady(page);
    const wrong: string[] = [];
    for (const c of cases) wrong.push(...(await differences(catalog, c, await show(page, c.state))));
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 600_000);

  for (const lang of ["en", "ar", "fr"] as const)
    it(`in ${lang}: <html lang dir>, the interface strings, the archive's names${lang === "ar" ? " in Arabic, the Arabic font from the build" : ""}, remembered for the next page; axe finds nothing critical or serious`, async () => {
      const { page, problems } = await watched();
      const fonts: string[] = [];
      page.on("response", (r) => r.url().includes("/fonts/") && fonts.push(`${r.status()} ${new URL(r.url()).pathname}`));
      await page.goto(`${site.server.origin}/?lang=${lang}`);
      await explorerReady(page);
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(SHOTS, `landing-${lang}.png`), fullPage: true });
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, lang === "ar" ? "rtl" : "ltr"]);
      expect(await page.textContent("h1")).toBe(
        { en: "Arabic Maqām Archive API", ar: "واجهة برمجة أرشيف المقامات العربية", fr: "API de l'archive des maqāmāt arabes" }[lang],
      );
      const title = await page.textContent("#explorer-title .main");
      const notes = await page.$$eval("table.pitches tr[data-row=ascending] td:nth-child(3)", (tds) => tds.map((td) => td.textContent));
      const labels = await page.$$eval("#picture g[data-row=ascending] text", (ts) => ts.map((t) => t.textContent));
      if (lang === "ar") {
        expect(title).toBe("مقام راست على راست");
        expect(notes).toEqual(["راست", "دوكاه", "سيكاه", "جَهاركاه", "نوى", "حُسَيني", "أوج"]);
        expect(labels).toContain("سيكاه");
        expect(fonts).toEqual(expect.arrayContaining(["200 /fonts/arabic.css", "200 /fonts/noto-naskh-arabic-arabic-400-normal.woff2"]));
        expect(await page.evaluate(() => document.fonts.check('16px "Noto Naskh Arabic"', "راست"))).toBe(true);
      } else {
        expect(title).toContain("maqām rāst");
        expect(notes[0]).toBe("rāst");
        expect(fonts).toEqual([]);
      }
      expect(await axeViolations(page)).toEqual([]);
      // Remembered: the next page without ?lang= is in the same language, and its switcher links keep the address.
      await page.goto(`${site.server.origin}/reference.html`);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      expect(await page.$$eval("nav.langs a", (as) => as.map((a) => a.getAttribute("href")))).toEqual([
        "/reference.html?lang=en",
        "/reference.html?lang=ar",
        "/reference.html?lang=fr",
      ]);
      expect(problems).toEqual([]);
      await page.close();
    }, 120_000);

  it("on a 390 px and a 360 px phone: nothing scrolls sideways, wide tables scroll in their box, the picture is drawn upright with text ≥ 11 px", async () => {
    for (const width of [390, 360]) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 800 });
      for (const view of ["", "&view=routes", "&view=compare"]) {
        await page.goto(`${site.server.origin}/?lang=en${view}`);
        await explorerReady(page);
        expect(await overflow(page), `${width} px${view}`).toBe(0);
      }
      await page.goto(`${site.server.origin}/?lang=ar`);
      await explorerReady(page);
      expect(await overflow(page)).toBe(0);
      await page.screenshot({ path: join(SHOTS, `phone-${width}-ar.png`), fullPage: true });
      await page.goto(`${site.server.origin}/?lang=en&format=midiNoteDecimal`);
      await explorerReady(page);
      expect(await overflow(page)).toBe(0);
      const picture = await page.$eval("#picture svg", (svg: SVGSVGElement) => {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
        return { width: svg.getBoundingClientRect().width, upright: svg.viewBox.baseVal.height > svg.viewBox.baseVal.width, smallest: Math.min(...sizes) };
      });
      expect(picture.width).toBeLessThanOrEqual(width);
      expect(picture.upright).toBe(true);
      expect(picture.smallest).toBeGreaterThanOrEqual(11);
      const boxes = await page.$$eval(".table-box", (bs) => bs.map((b) => getComputedStyle(b).overflowX));
      expect(boxes.every((o) => o === "auto")).toBe(true);
      await page.screenshot({ path: join(SHOTS, `phone-${width}.png`), fullPage: true });
      await page.close();
    }
  }, 120_000);

  it("the instrument guide (docs/exports.md) is a page of the site, linked from the downloads, readable on a phone", async () => {
    const { page, problems } = await watched();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${site.server.origin}/?lang=en`);
    await explorerReady(page);
    await page.click("#explorer-links .guide-link a");
    await page.waitForSelector("main.guide h2");
    expect(await page.$$eval("main.guide h2", (hs) => hs.map((h) => h.textContent))).toEqual([
      "Which file goes where",
      "What the files say",
      "Choices worth knowing",
    ]);
    expect(await overflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("routes: rāst → bayyāt in Ibn Sīnā from yegāh drawn as paths, each hop labelled with the API's degree and al-Shawwā category; axe finds nothing critical or serious", async () => {
    const { page, problems } = await watched();
    await page.goto(
      `${site.server.origin}/?lang=en&view=routes&tuningSystem=ibnsina_1037&startingNote=yegah&maqam=maqam_rast&to=maqam_bayyat&maxHops=2&maxRoutes=10&downward=true#explorer`,
    );
    await explorerReady(page);
    const want = (await (await handleRequest(new Request(`http://localhost/api${ROUTE_EXAMPLE}`), site.reference)).json()) as RoutesAnswer;
    const steps = want.totalPossibleRoutes.data.map((r) => r.outboundRoute.steps);
    expect(steps.length).toBe(10);
    const drawn = await page.$$eval("ol.route", (routes) =>
      routes.map((r) => ({
        nodes: [...r.querySelectorAll(".node")].map((n) => n.textContent),
        hops: [...r.querySelectorAll<HTMLElement>(".hop")].map((h) => [h.dataset.degree, h.dataset.category, h.textContent]),
      })),
    );
    expect(drawn.map((r) => r.nodes)).toEqual(steps.map((st) => [st[0].from, ...st.map((x) => x.to)].map((n) => `${n.maqamDisplayName} (${n.tonicDisplay})`)));
    expect(drawn.map((r) => r.hops.map((h) => [h[0], h[1]]))).toEqual(steps.map((st) => st.map((x) => [x.modulationDegree, x.modulationCategory])));
    expect(drawn[0].hops[0][2]).toBe("→degree IV, on the fourth degree");
    await page.screenshot({ path: join(SHOTS, "routes.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("compare: maqām rāst in four tuning systems, cents from the tonic and the differences from the reference as the API answers, in a table and a picture; axe finds nothing critical or serious", async () => {
    const { page, problems } = await watched();
    const systems = ["ibnsina_1037", "alfarabi_950g", "cairocongresstuningcommittee_1929", "angloeuropean_1800"];
    await page.goto(
      `${site.server.origin}/?lang=en&view=compare&kind=maqam&maqam=maqam_rast&systems=${systems.join(",")}&reference=angloeuropean_1800#explorer`,
    );
    await explorerReady(page);
    const cents = new Map<string, number[]>();
    for (const id of systems) {
      const list = (await (await handleRequest(new Request(`http://localhost/api/tuning-systems`), site.reference)).json()) as {
        data: { tuningSystem: { idName: string }; startingNotes: { idNames: string[] } }[];
      };
      const notes = list.data.find((d) => d.tuningSystem.idName === id)!.startingNotes.idNames;
      for (const note of notes) {
        const r = await handleRequest(
          new Request(`http://localhost/api/maqamat/maqam_rast?tuningSystem=${id}&startingNote=${note}&pitchClassDataType=cents`),
          site.reference,
        );
        if (r.status !== 200) continue;
        const ascending = ((await r.json()) as { pitchData: { ascending: { cents: number }[] } }).pitchData.ascending;
        cents.set(
          id,
          ascending.map((p) => p.cents - ascending[0].cents),
        );
        break;
      }
    }
    const table = await page.$$eval("table.compare tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    const round = (n: number) => String(Math.round(n * 1000) / 1000);
    table.forEach((cells, degree) => {
      systems.forEach((id, k) => {
        expect(cells[2 * k].split(" ")[0]).toBe(round(cents.get(id)![degree]));
        if (id !== "angloeuropean_1800") expect(cells[2 * k + 1]).toBe(round(cents.get(id)![degree] - cents.get("angloeuropean_1800")![degree]));
      });
    });
    expect(table).toHaveLength(7);
    expect(await page.$$eval("#compare-picture g[data-row]", (gs) => gs.map((g) => g.getAttribute("data-row")))).toEqual(systems);
    await page.screenshot({ path: join(SHOTS, "compare.png"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("notation: the staff is loaded only when asked for, and draws each note of rāst with the archive's accidentals (segāh and awj half-flat)", async () => {
    const { page, problems } = await watched();
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));
    await page.goto(`${site.server.origin}/?lang=en&tuningSystem=ibnsina_1037&startingNote=yegah&kind=maqam&maqam=maqam_rast#explorer`);
    await explorerReady(page);
    expect(scripts.some((p) => p.includes("notation"))).toBe(false);
    await page.click("#show-staff");
    await page.waitForSelector("#staff svg[data-notes]", { timeout: 60_000 });
    expect(scripts.some((p) => /\/chunks\/notation-.*\.js$/.test(p))).toBe(true);
    expect(await page.$eval("#staff svg", (svg) => svg.getAttribute("data-notes"))).toBe("14");
    // Two half-flats ascending (segāh, awj), one descending (segāh): VexFlow's quarter-tone flat glyph (SMuFL U+E280).
    expect(await page.$$eval("#staff svg text", (ts) => ts.filter((t) => t.textContent === "\uE280").length)).toBe(3);
    await page.screenshot({ path: join(SHOTS, "staff.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('the reference renders all its operations without the site\'s styles, axe finds nothing critical or serious, and "try it" asks the origin it is served from', async () => {
    expect(existsSync(join(site.sample.outDir, "api", "openapi.json"))).toBe(true);
    const { page, problems } = await watched();
    await page.goto(`${site.server.origin}/reference.html?lang=en`);
    await page.waitForFunction((n) => document.querySelectorAll(".opblock").length >= n, describedRoutes.length, { timeout: 30_000 });
    // Every operation of the document: the endpoints, the exports, the index and the document itself.
    expect(await page.$$eval(".opblock", (ops) => ops.length)).toBe(describedRoutes.length);
    expect(await page.$$eval("link[rel=stylesheet]", (ls) => ls.map((l) => new URL((l as HTMLLinkElement).href).pathname))).toEqual([
      "/reference/swagger-ui.css",
      "/reference.css",
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "reference.png") });
    // "Try it out" on GET /tuning-systems: the request goes to this host's /api.
    const operation = page.locator(".opblock").filter({ has: page.locator('.opblock-summary-path[data-path="/tuning-systems"]') });
    await operation.locator(".opblock-summary-control").click();
    const asked = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/tuning-systems", { timeout: 30_000 });
    await operation.locator("button.execute").click();
    const response = await asked;
    expect(new URL(response.url()).origin).toBe(site.server.origin);
    expect(response.status()).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("through the service worker, recorded requests over all 31 endpoints answer with the Node handler's status and bytes", async () => {
    const paths = [...replaySet(SW_CASES), ROUTE_SEARCH, INTERVALS];
    expect(new Set(paths.map(endpointOf))).toEqual(new Set(dataRoutes.map((r) => r.name)));
    const page = await browser.context.newPage();
    await page.goto(`${site.server.origin}/`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((done) => navigator.serviceWorker.addEventListener("controllerchange", done, { once: true }));
    });
    const got = await page.evaluate(async (list) => {
      const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
      const out: { status: number; sha1: string; source: string | null }[] = [];
      for (const path of list) {
        const r = await fetch(`/api${path}`);
        out.push({ status: r.status, sha1: hex(await crypto.subtle.digest("SHA-1", await r.arrayBuffer())), source: r.headers.get("x-answer-source") });
      }
      return out;
    }, paths);
    const differences: string[] = [];
    const sources = new Map<string, number>();
    for (const [i, path] of paths.entries()) {
      const want = await nodeAnswer(path);
      sources.set(String(got[i].source), (sources.get(String(got[i].source)) ?? 0) + 1);
      if (got[i].status !== want.status || got[i].sha1 !== want.sha1 || got[i].source !== want.source)
        differences.push(
          `${path}: ${got[i].status} ${got[i].source} vs Node ${want.status} ${want.source}${got[i].sha1 === want.sha1 ? "" : ", bytes differ"}`,
        );
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(sources.get("static")).toBeGreaterThan(5);
    expect(sources.get("computed")).toBeGreaterThan(100);
    await page.close();
  }, 240_000);
});

if (missing && !process.env.CI) it.skip(`the browser tests are skipped: ${missing}`, () => {});
