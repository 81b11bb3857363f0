// Types of build-server.mjs (plain JavaScript run by Node without a build step) for the TypeScript
// that imports it: the test suites' setups.
export declare const serverBundle: string;
export declare const cliBundle: string;
/** The newest modification time (ms) of a file, or of any file under a directory; 0 when missing. */
export declare function newestMtime(target: string): number;
export declare function serverBundleIsStale(): boolean;
export declare function buildServer(): Promise<void>;
export declare function buildServerIfStale(): Promise<void>;
