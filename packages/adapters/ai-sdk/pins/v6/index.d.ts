// Loosely typed on purpose: the adapter reads these modules by feature detection, across versions.
export declare const ai: Record<string, any>;
export declare const test: Record<string, any>;
export declare const version: string;
export declare const dir: string;
