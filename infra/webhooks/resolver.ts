import { lookup } from 'node:dns/promises';

/** Resolves a host name to its addresses; null when it does not resolve. */
export type Resolver = (host: string) => Promise<string[] | null>;

export const systemResolver: Resolver = async (host) => {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);
  } catch {
    return null;
  }
};
