export declare const version: string;
/** Where this pin is installed. */
export declare const dir: string;
