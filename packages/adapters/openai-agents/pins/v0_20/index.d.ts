// Loosely typed on purpose: the adapter reads these modules by feature detection, across versions.
export declare const agents: Record<string, any>;
export declare const testing: Record<string, any> | undefined;
export declare const version: string;
export declare const dir: string;
