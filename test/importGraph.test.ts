import { createRequire } from "node:module";
/**
 * The import graph of src has no cycle (type-only imports included): arrows point one way,
 * adapters → api → theory → data. dependency-cruiser reads the graph as TypeScript resolves it.
 */
import { describe, expect, it } from "vitest";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

async function importGraph(): Promise<ICruiseResult> {
  const result = await cruise(
    ["src"],
    {
      tsPreCompilationDeps: true,
      tsConfig: { fileName: "tsconfig.json" },
      validate: true,
      ruleSet: { forbidden: [{ name: "no-circular", severity: "error", from: {}, to: { circular: true } }] },
    },
    undefined,
    { tsConfig: extractTSConfig("tsconfig.json") },
  );
  return typeof result.output === "string" ? (JSON.parse(result.output) as ICruiseResult) : result.output;
}

describe("import graph of src", () => {
  it("resolves every import and has no cycle", async () => {
    const graph = await importGraph();
    expect(graph.summary.totalCruised).toBeGreaterThan(90);
    // A package's subpath export (tsx/esm/api) is resolved by Node itself, which the cruiser's resolver does not follow.
    const resolvedByNode = (specifier: string) => {
      if (specifier.startsWith(".")) return false;
      try {
        return Boolean(createRequire(import.meta.url).resolve(specifier));
      } catch {
        return false;
      }
    };
    const unresolved = graph.modules.flatMap((m) =>
      m.dependencies.filter((d) => d.couldNotResolve && !resolvedByNode(d.module)).map((d) => `${m.source} → ${d.module}`),
    );
    expect(unresolved).toEqual([]);
    const cycles = graph.summary.violations.map((v) =>
      (v.cycle ?? [])
        .map((step) => step.name)
        .concat(v.from)
        .join(" → "),
    );
    expect(cycles).toEqual([]);
  });
});
