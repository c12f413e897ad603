/** The types of scripts/keptKey.mjs. */
export declare const REPOSITORY: string;
export declare const THREAD_BUNDLES: string;
export declare const BUNDLER: string;
export declare const sha256: (bytes: string | Uint8Array) => string;
export declare function keyOf(parts: unknown, inputs: readonly string[]): string | undefined;
export declare function bundleIsCurrent(file: string, parts: object): boolean;
export declare const scriptBundleOf: (entry: string) => { file: string; parts: { esbuild: string; entry: string; script: true; root: string } };
