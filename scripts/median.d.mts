/** Of an odd count the middle value, of an even count the upper of the two middle ones. */
export declare function median(values: readonly number[]): number;
