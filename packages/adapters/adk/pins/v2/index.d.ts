// Loosely typed on purpose: the adapter reads the module by feature detection, across versions.
export declare const adk: Record<string, any>;
export declare const version: string;
export declare const dir: string;
