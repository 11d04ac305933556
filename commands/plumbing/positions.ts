/** The latest of the log positions a handler's writes reached (0n when none wrote), for read-your-writes. */
export const latestPosition = (...positions: bigint[]): bigint => positions.reduce((a, b) => (a > b ? a : b), 0n);
